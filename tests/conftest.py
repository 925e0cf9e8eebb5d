import os

from hypothesis import settings

# Shared, noisy machines: numeric property tests get no per-example deadline.
settings.register_profile("attn", deadline=None, max_examples=int(os.environ.get("HYPOTHESIS_EXAMPLES", 100)))
settings.load_profile("attn")
