"""The optional native core: the C extension triominos._board, built from Cython.

Everything else is in pyproject.toml. ``pip install`` never needs a compiler: where the
extension cannot be built (no C compiler, no Python headers) the build says so in one
line and the package installs pure Python, which gives the same results, more slowly
(:mod:`triominos.native`). A wheel built where it can be carries the extension, and an
editable install builds it next to its source.
"""

from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

try:
    from Cython.Build import cythonize
except ImportError:  # a build without its build requirements (--no-build-isolation)
    cythonize = None


class OptionalBuildExt(build_ext):
    """build_ext that leaves the extension out, with a warning, when it fails to build."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # the compiler is missing: distutils' errors vary
            self._skip(error)

    def build_extension(self, ext: Any) -> None:
        try:
            super().build_extension(ext)
        except Exception as error:
            self._skip(error)

    def _skip(self, error: Exception) -> None:
        print(f"triominos: native core not built, pure Python instead ({error})")


def native_extensions() -> list[Extension]:
    if cythonize is None:
        print("triominos: native core not built, pure Python instead (no Cython)")
        return []
    return cythonize("src/triominos/*.pyx", quiet=True)  # type: ignore[no-any-return]


setup(ext_modules=native_extensions(), cmdclass={"build_ext": OptionalBuildExt})
