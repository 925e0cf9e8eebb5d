"""The pictures: fonts (Chinese in matplotlib), plots (matplotlib figures for the lessons), svg (a small
drawing kit) and explorers (interactive widgets). Built on the math in ``attn_core``; never imports
``attn_homework``."""
