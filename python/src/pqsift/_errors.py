"""pqsift's errors: one exception class per status code of the C++ library, all under Error.

The message is the one the pqsift command line prints for the same failure (it names the file
and what is wrong). Where a built-in exception means the same, the class derives from it too,
so ``except ValueError`` or ``except OSError`` also catches it.
"""

from __future__ import annotations


class Error(Exception):
    """Base class of every error pqsift raises."""

    #: The C++ library's status code name ("InvalidArgument", "Corruption", ...).
    code: str = "Unknown"


class InvalidArgumentError(Error, ValueError):
    """The request is wrong: an unknown column, a filter that does not parse, a bad option."""

    code = "InvalidArgument"


class CorruptionError(Error):
    """A file's bytes break the Parquet format; reading it again will not help."""

    code = "Corruption"


class NotSupportedError(Error, NotImplementedError):
    """A valid file uses a feature pqsift does not implement."""

    code = "NotSupported"


class IOError(Error, OSError):  # noqa: A001 - pqsift.IOError, also an OSError
    """The operating system or the network failed (a missing file, a failed read)."""

    code = "IOError"


class OutOfRangeError(Error, ValueError):
    """A read past the end of a file, or a value the target type cannot hold (a timestamp
    outside pandas' nanosecond range)."""

    code = "OutOfRange"


class ResourceExhaustedError(Error, MemoryError):
    """A configured memory or size limit would be exceeded."""

    code = "ResourceExhausted"


class InternalError(Error):
    """A bug in pqsift: please report it with the file."""

    code = "Internal"


class AuthenticationError(Error):
    """Encrypted bytes failed authentication: a wrong key, or a tampered file."""

    code = "Authentication"


# The library's StatusCode values (include/pqsift/status.h).
_BY_STATUS_CODE = {
    1: InvalidArgumentError,
    2: CorruptionError,
    3: NotSupportedError,
    4: IOError,
    5: OutOfRangeError,
    6: ResourceExhaustedError,
    7: InternalError,
    8: AuthenticationError,
}
