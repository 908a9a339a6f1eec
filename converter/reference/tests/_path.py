"""Makes converter/reference importable from the tests."""
import os
import sys

REFERENCE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO_ROOT = os.path.dirname(os.path.dirname(REFERENCE_DIR))
if REFERENCE_DIR not in sys.path:
    sys.path.insert(0, REFERENCE_DIR)
