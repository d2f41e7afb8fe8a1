"""The package's own tests run against a real dynd (the plugin's fixtures). Without the package
installed, the checkout's copy is imported."""

import os
import sys

try:
    import dynd  # noqa: F401
except ImportError:
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

pytest_plugins = ["pytester", "dynd.pytest_plugin"]
