#!/bin/sh
# Placeholder: the html tests are not written yet.
echo "FAIL: html tests not written yet"
exit 1
