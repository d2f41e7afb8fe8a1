#!/bin/sh
# make deb: dist/dynd_<version>_amd64.deb from a tree `make install` wrote with PREFIX=/usr, with
# Debian's own tools and the metadata in debian/:
#   1. what dh_strip and dh_compress would do: binaries stripped, manual pages and the changelog
#      gzip -9n, debian/copyright in its place;
#   2. Depends derived: dpkg-shlibdeps reads the binaries' NEEDED entries and maps each library to
#      the Debian package that ships it (its shlibs/symbols files), with the versions it needs;
#   3. DEBIAN/control from debian/control and debian/changelog by dpkg-gencontrol, the version
#      from VERSION (the changelog's newest entry must be that version);
#   4. dpkg-deb --root-owner-group; then lintian, which must report no error.
# Usage: packaging/build_deb.sh ROOT VERSION OUT_DIR
set -eu

if [ $# -ne 3 ]; then
  echo "usage: $0 ROOT VERSION OUT_DIR" >&2
  exit 64
fi
root=$1 version=$2 out=$3
package=dynd
doc="$root/usr/share/doc/$package"

changelog_version=$(dpkg-parsechangelog -l debian/changelog -S Version)
if [ "$changelog_version" != "$version" ]; then
  echo "build_deb.sh: debian/changelog's newest entry is $changelog_version, VERSION says" \
    "$version: add a changelog entry for $version (dch -v $version)" >&2
  exit 65
fi

for binary in "$root"/usr/bin/*; do
  strip --strip-unneeded --remove-section=.comment --remove-section=.note "$binary"
done
gzip -9n "$root"/usr/share/man/man1/*.1
mkdir -p "$doc"
install -m 644 debian/copyright "$doc/copyright"
gzip -9nc debian/changelog >"$doc/changelog.gz"
chmod 644 "$doc/changelog.gz"

mkdir -p "$root/DEBIAN"
rm -f debian/substvars
dpkg-shlibdeps -Tdebian/substvars -e "$root"/usr/bin/*
dpkg-gencontrol -p"$package" -v"$version" -P"$root" -Tdebian/substvars
rm -f debian/substvars debian/files
(cd "$root" && find usr -type f -print0 | sort -z | xargs -0 md5sum >DEBIAN/md5sums)
chmod 644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"

mkdir -p "$out"
deb="$out/${package}_${version}_amd64.deb"
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
echo "build_deb.sh: $deb ($(du -k "$deb" | cut -f1) KiB); Depends: $(dpkg-deb -f "$deb" Depends)"

# lintian exits non-zero on errors (its default --fail-on error); warnings and infos are listed.
lintian --display-info --fail-on error "$deb"
echo "build_deb.sh: lintian reports no error"
