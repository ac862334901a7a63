#!/bin/sh
# Placeholder: the xml tests are not written yet.
echo "FAIL: xml tests not written yet"
exit 1
