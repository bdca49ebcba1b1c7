"""Builds pqsift's extension module (pqsift._pqsift) with the project's CMake.

The C++ library and the module are built from the repository this folder belongs to (its
CMakeLists.txt one level up), for the Python running this build. Set PQSIFT_CMAKE_BUILD_DIR to
an already configured build folder (scripts/test uses build/) to reuse it instead of
configuring a fresh one under build/ here.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def version() -> str:
    text = (ROOT / "CMakeLists.txt").read_text()
    found = re.search(r"project\(pqsift VERSION (\S+)", text)
    return found.group(1) if found else "0.0.0"


class CMakeBuild(build_ext):
    def build_extension(self, ext: Extension) -> None:
        given = os.environ.get("PQSIFT_CMAKE_BUILD_DIR")
        build_dir = Path(given).resolve() if given else Path(self.build_temp).resolve() / "cmake"
        if not (build_dir / "CMakeCache.txt").exists():
            generator = ["-G", "Ninja"] if shutil.which("ninja") else []
            subprocess.run(
                ["cmake", "-S", str(ROOT), "-B", str(build_dir), *generator,
                 "-DCMAKE_BUILD_TYPE=Release", "-DPQSIFT_BUILD_TESTS=OFF",
                 "-DPQSIFT_BUILD_BENCH=OFF", "-DPQSIFT_WERROR=OFF", "-DPQSIFT_BUILD_PYTHON=ON",
                 f"-DPython_EXECUTABLE={sys.executable}"],
                check=True)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 2))
        subprocess.run(["cmake", "--build", str(build_dir), "--target", "_pqsift", "-j", jobs],
                       check=True)
        built = sorted((build_dir / "python" / "pqsift").glob("_pqsift*.so"))
        if not built:
            raise RuntimeError(f"the build left no _pqsift module in {build_dir}/python/pqsift "
                               "(are pybind11-dev and python3-dev installed? scripts/setup)")
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built[-1], target)


setup(
    version=version(),
    ext_modules=[Extension("pqsift._pqsift", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
)
