"""The fort battle in Discord: its presenter (``binding.PRESENTER``), its live status message, its odds."""
