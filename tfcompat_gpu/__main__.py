"""``python -m tfcompat_gpu`` is ``tfcompat-gpu``."""

from __future__ import annotations

from tfcompat_gpu.cli import main

raise SystemExit(main())
