"""Every learner-facing message of the homework (checker verdicts and hints, task lookups, progress),
Chinese and English side by side. Use: ``from .messages import msg`` then ``msg("key", ...)``."""

from ..lang import Catalog

msg = Catalog({})
