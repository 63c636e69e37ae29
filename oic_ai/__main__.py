"""Allow ``python -m oic_ai``."""

from oic_ai.cli.main import main

raise SystemExit(main())
