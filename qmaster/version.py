"""The version minige reports (``ping``, ``qmaster --version``)."""

VERSION = "0.1.0"
