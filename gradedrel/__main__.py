"""``python -m gradedrel`` = the ``gradedrel`` command."""
import sys

from gradedrel.cli import main

sys.exit(main())
