"""
Schemathesis hooks for the CI run of scripts/protocol/check.sh: what OpenAPI cannot say.

A lower bound above its upper bound (from > to, published_from > published_to, min_words >
max_words) is a 400 naming the lower one, by design: two query parameters cannot constrain each
other in an OpenAPI parameter list. Generated queries that invert a pair are left out, so every
other case of positive_data_acceptance stays checked (the 400 itself is covered by
packages/server/test/search-surface.test.ts).
"""
import schemathesis

BOUNDS = (("from", "to"), ("published_from", "published_to"), ("min_words", "max_words"))


def _number(value):
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


@schemathesis.hook
def filter_query(ctx, query):
    if not query:
        return True
    for lower, upper in BOUNDS:
        low, high = _number(query.get(lower)), _number(query.get(upper))
        if low is not None and high is not None and low > high:
            return False
    return True
