#!/bin/sh
# test_install.sh - make install (into a DESTDIR) installs the library,
# the tools and commprof.pc, whose preload variable names the installed
# library and whose mpi variable the MPI of the build.
. "$(dirname "$0")/lib.sh"

command -v pkg-config >/dev/null 2>&1 || skip "no pkg-config"
D="$T/dest"
make -s -C "$top_builddir" install DESTDIR="$D" >"$T/make.out" 2>&1 ||
	{ cat "$T/make.out" >&2; fail "make install"; }
pc=$(find "$D" -name commprof.pc)
[ -n "$pc" ] || fail "no commprof.pc installed"
pcdir=${pc%/commprof.pc}
pcv() {
	PKG_CONFIG_PATH="$pcdir" PKG_CONFIG_SYSROOT_DIR= \
		pkg-config --variable="$1" commprof
}
lib=$(pcv preload)
[ -f "$D$lib" ] || fail "preload $lib: not installed under $D"
expect_eq "mpi" "$(pcv mpi)" "$CP_MPI"
expect_eq "modversion" \
	"$(PKG_CONFIG_PATH="$pcdir" pkg-config --modversion commprof)" \
	"$(sed -n 's/^AC_INIT(\[commprof\], \[\([^]]*\)\].*/\1/p' \
		"$top_srcdir/configure.ac")"
for b in commprof commprof-calibrate; do
	[ -x "$D$(pcv bindir)/$b" ] || fail "no $b installed"
done
note "preload=$lib mpi=$(pcv mpi)"
