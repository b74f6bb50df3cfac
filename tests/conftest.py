import os

from hypothesis import HealthCheck, settings

# Deterministic property tests: the suite is never flaky and CI reproduces what we saw.
settings.register_profile(
    "ci", derandomize=True, deadline=None, max_examples=100,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_collection_modifyitems(items):
    """The quick tests first, the browser tests last: a rules failure shows within minutes."""
    items.sort(key=lambda item: "/e2e/" in str(item.fspath))
