#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# build-umad2sim.sh: build libumad2sim.so from an ibsim source tree with
# one fix, for the RMPP bench (README, "umad2sim loses MAD bytes
# 224-255").  Upstream umad2sim (0.10 as packaged by Debian, and 0.12)
# queues each received MAD in a buffer of sizeof(struct sim_request) =
# 288 bytes, which must hold the 64-byte umad header and the 256-byte MAD:
# it copies only the first 224 bytes of the MAD, then hands the reader
# 320 bytes (a 32-byte heap over-read), so MAD bytes 224-255 are garbage.
# The fix sizes that buffer umad_size() + 256.  Nothing is copied into
# fabaudit; the source comes from the caller:
#
#   git clone -b ibsim-0.10 https://github.com/linux-rdma/ibsim SRC
#   sh bench/rmpp/build-umad2sim.sh SRC OUTDIR    # -> OUTDIR/libumad2sim.so
set -eu
src=$1 out=$2
[ -r "$src/umad2sim/umad2sim.c" ] || { echo "no $src/umad2sim/umad2sim.c" >&2; exit 2; }
mkdir -p "$out"
grep -q 'alloc_umad_buf(sizeof(struct sim_request))' "$src/umad2sim/umad2sim.c" ||
	{ echo "build-umad2sim.sh: the line to fix is not there" >&2; exit 1; }
sed 's/alloc_umad_buf(sizeof(struct sim_request))/alloc_umad_buf(umad_size() + 256)/' \
	"$src/umad2sim/umad2sim.c" >"$out/umad2sim.c"
cc -O2 -g -fpic -shared -w -I"$src/umad2sim" -I"$src/include" \
	-o "$out/libumad2sim.so" "$out/umad2sim.c" "$src/umad2sim/sim_client.c" \
	-ldl -libmad -libumad -lpthread
echo "built $out/libumad2sim.so"
