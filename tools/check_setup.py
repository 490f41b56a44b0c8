"""Set-up check, run by `make setup` before anything is installed.

Checks what pip cannot install: Python >= 3.11 (3.11, 3.12 and 3.13 are tested), the venv
module with ensurepip (Debian and Ubuntu ship it separately), and Java 17 or newer for
Terrier, as a full JDK: the posting arrays writer (gradedrel/collection/
PostingArraysWriter.java) runs with Java's source launcher, which needs the compiler module
jdk.compiler that a JRE lacks. Prints one line per missing piece, saying what to install, and exits 1; on success
prints one line with what it found.

Deliberately written for any Python (no f-strings, no annotations): it must run on the
interpreter it rejects.
"""
from __future__ import print_function

import os
import re
import subprocess
import sys

MIN_PYTHON = (3, 11)
MIN_JAVA = 17
TESTED = "3.11, 3.12, 3.13"


def check_python():
    found = ".".join(str(part) for part in sys.version_info[:3])
    if tuple(sys.version_info[:2]) >= MIN_PYTHON:
        return None, "Python " + found
    return ("setup: Python {0} ({1}) is too old: gradedrel needs Python 3.11 or newer "
            "(tested: {2}); install one and run `make setup PYTHON=python3.11` (or 3.12, 3.13)"
            .format(found, sys.executable, TESTED)), None


def venv_package():
    """Debian's name for the venv module of this interpreter."""
    versioned = "python{0}.{1}-venv".format(*sys.version_info[:2])
    default = os.path.realpath("/usr/bin/python3")
    if os.path.realpath(sys.executable) == default:
        return "python3-venv"  # the distribution's own python3 (depends on the versioned one)
    return versioned


def check_venv():
    try:
        import venv  # noqa: F401
        import ensurepip  # noqa: F401
    except ImportError:
        return ("setup: the venv module (with ensurepip) is missing for {0}: install it "
                "(Debian/Ubuntu: apt-get install {1})"
                .format(sys.executable, venv_package())), None
    return None, "venv"


def find_java():
    home = os.environ.get("JAVA_HOME")
    if home:
        candidate = os.path.join(home, "bin", "java")
        if os.access(candidate, os.X_OK):
            return candidate
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        candidate = os.path.join(folder, "java")
        if folder and os.access(candidate, os.X_OK) and not os.path.isdir(candidate):
            return candidate
    return None


INSTALL_JAVA = "install a JDK 17 (Debian/Ubuntu: apt-get install openjdk-17-jdk-headless)"


def java_major(text):
    """Major version from `java -version` output: '17.0.15' -> 17, '1.8.0_392' -> 8."""
    match = re.search(r'version "(\d+)(?:\.(\d+))?', text)
    if not match:
        return None
    major = int(match.group(1))
    if major == 1 and match.group(2):
        major = int(match.group(2))
    return major


def check_java():
    java = find_java()
    if java is None:
        return ("setup: Java 17 is needed for Terrier and no `java` was found (JAVA_HOME, PATH): "
                + INSTALL_JAVA), None
    try:
        process = subprocess.Popen([java, "-version"], stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT)
        output = process.communicate()[0].decode("utf-8", "replace")
    except OSError as error:
        return "setup: {0} -version failed ({1}): {2}".format(java, error, INSTALL_JAVA), None
    major = java_major(output)
    if major is None or major < MIN_JAVA:
        first = output.strip().splitlines()[0] if output.strip() else "no output"
        return ("setup: Java 17 or newer is needed for Terrier; {0} says '{1}': {2}"
                .format(java, first, INSTALL_JAVA)), None
    if not has_compiler(java):
        return ("setup: {0} is Java {1} without a compiler (module jdk.compiler, needed to run "
                "the posting arrays writer with Java's source launcher; a JRE lacks it): {2}"
                .format(java, major, INSTALL_JDK)), None
    return None, "Java {0} JDK ({1})".format(major, java)


INSTALL_JDK = ("install the full JDK, not only the JRE (Debian/Ubuntu: apt-get install "
               "openjdk-17-jdk-headless)")


def has_compiler(java):
    """Whether ``java`` has the module jdk.compiler (``java --list-modules`` lists
    ``jdk.compiler@<version>``): what the source launcher (``java File.java``) needs."""
    try:
        process = subprocess.Popen([java, "--list-modules"], stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT)
        output = process.communicate()[0].decode("utf-8", "replace")
    except OSError:
        return False
    return any(line.strip().split("@")[0] == "jdk.compiler" for line in output.splitlines())


def main():
    problems, found = [], []
    for check in (check_python, check_venv, check_java):
        if check is check_venv and problems:
            continue  # an interpreter that is too old: its venv module does not matter
        problem, ok = check()
        if problem:
            problems.append(problem)
        else:
            found.append(ok)
    if problems:
        for line in problems:
            print(line, file=sys.stderr)
        return 1
    print("setup check: " + ", ".join(found) + " - ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
