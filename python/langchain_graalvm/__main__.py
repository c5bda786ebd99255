"""``python -m langchain_graalvm``."""

import sys

from langchain_graalvm.cli import main

sys.exit(main())
