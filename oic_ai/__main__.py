"""Allow ``python -m oic_ai``."""

from oic_ai.cli import main

raise SystemExit(main())
