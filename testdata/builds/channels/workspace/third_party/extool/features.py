"""features.py [--sorted]: the feature flags enabled in this build."""

import sys

FEATURES = {"audit", "bluetooth", "cache", "dbus", "encryption", "fonts", "gpu", "http2", "ipv6", "json"}

names = sorted(FEATURES) if "--sorted" in sys.argv else FEATURES
print("FEATURES=" + " ".join(names))
