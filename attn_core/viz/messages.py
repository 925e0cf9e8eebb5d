"""Every learner-facing message of the pictures (explorer labels and readouts, plot labels, errors),
Chinese and English side by side. Use: ``from .messages import msg`` then ``msg("key", ...)``."""

from ..lang import Catalog

msg = Catalog({})
