"""Index readers keep each package's dependencies: Debian Depends, RPM requires."""

from __future__ import annotations

from oic_ai.stores.package_formats import parse_deb_packages, parse_rpm_primary
from oic_ai.stores.package_needs import load_package_needs


def test_debian_pre_depends_and_depends_with_alternatives() -> None:
    text = (
        b"Package: a\nVersion: 1\nArchitecture: amd64\n"
        b"Pre-Depends: dpkg (>= 1.19)\n"
        b"Depends: b (>= 2) | c, d:any, e [amd64]\n\n"
        b"Package: f\nVersion: 1\nArchitecture: all\n"
    )
    first, second = parse_deb_packages(text)
    assert first.depends == ("dpkg", "b|c", "d", "e")
    assert second.depends == ()


def test_rpm_requires_keep_names_and_drop_sonames_and_rpmlib() -> None:
    primary = b"""<?xml version="1.0"?>
<metadata xmlns="http://linux.duke.edu/metadata/common"
          xmlns:rpm="http://linux.duke.edu/metadata/rpm" packages="1">
<package type="rpm"><name>mod_ssl</name><arch>x86_64</arch>
<version epoch="1" ver="2.4.62" rel="1.el10"/>
<format>
<rpm:requires>
<rpm:entry name="httpd" flags="EQ" epoch="0" ver="2.4.62"/>
<rpm:entry name="libc.so.6()(64bit)"/>
<rpm:entry name="rpmlib(CompressedFileNames)"/>
<rpm:entry name="/usr/bin/sh"/>
<rpm:entry name="sscg"/>
</rpm:requires>
</format></package>
</metadata>"""
    (record,) = parse_rpm_primary(primary)
    assert record.depends == ("httpd", "sscg")


def test_the_curated_table_adds_a_dists_entries_to_its_familys() -> None:
    needs = load_package_needs()
    assert needs.needed_by("apache2", "ubuntu", "ubuntu24") == ("libapache2-mod-*",)
    assert needs.needed_by("httpd", "redhat-compatible-distro", "el10")[0] == "mod_*"
    assert needs.needed_by("apache2", "windows", "win11") == ()
