"""
Schemathesis hooks for scripts/protocol/check.sh: what OpenAPI cannot say.

A lower bound above its upper bound (from > to, published_from > published_to, min_words >
max_words) is a 400 naming the lower one, by design: two query parameters cannot constrain each
other in an OpenAPI parameter list. Before a generated request goes out, an inverted pair is put in
order (the two values swapped), in every phase, so every other case of positive_data_acceptance
stays checked. The 400 itself is tested in packages/server/test/search-surface.test.ts.
"""
import schemathesis

BOUNDS = (("from", "to"), ("published_from", "published_to"), ("min_words", "max_words"))


def _number(value):
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


@schemathesis.hook
def before_call(ctx, case, **kwargs):
    query = case.query
    if not query:
        return None
    for lower, upper in BOUNDS:
        low, high = _number(query.get(lower)), _number(query.get(upper))
        if low is not None and high is not None and low > high:
            query[lower], query[upper] = query[upper], query[lower]
    return None



@schemathesis.hook
def filter_headers(ctx, headers):
    # The run authenticates with x-api-key, which wins over Authorization when both are sent (README,
    # docs/API.md): a generated Authorization header is never read, so a malformed one cannot be
    # refused and a case whose violation is there would be a false failure. Keyless and bad-key
    # calls are checked by Schemathesis's own auth checks and by the test suite (401 with
    # WWW-Authenticate over REST and MCP).
    return not headers or not any(name.lower() == "authorization" for name in headers)


@schemathesis.hook
def filter_query(ctx, query):
    # A query value that is an object, null or an empty list has no wire form of its own: the HTTP
    # client writes {"": []} as `name=` and drops null and [] altogether, so what goes out is a valid
    # request (an empty value means "not given") while the case is labelled schema-violating.
    return not query or not any(isinstance(value, dict) or value is None or value == [] for value in query.values())
