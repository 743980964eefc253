"""Schemathesis hooks of tools/scripts/schemathesis.sh runs (loaded through SCHEMATHESIS_HOOKS).

Idempotency keys: a client sends a new Idempotency-Key with every new request and reuses a key only to retry the
same request (docs/security.md#idempotency-keys). Schemathesis draws header values independently of bodies, so it
sends the same small keys ("0", "a", ...) with different bodies and paths, and the API rightly answers 422
(SVC-BE-1106, key reused with another request), which Schemathesis counts as a valid request rejected. A well-formed
key is therefore made unique per call; malformed keys (negative tests) are sent as drawn.
"""

import re
import uuid

import schemathesis

# The key as the API reads it (libs/platform/idempotency): trimmed, optionally in double quotes, then 1 to 255 visible
# ASCII characters without `"`.
WELL_FORMED_KEY = re.compile(r"^[\x21\x23-\x7e]{1,255}$")


def well_formed(value):
    inner = value.strip()
    if len(inner) >= 2 and inner.startswith('"') and inner.endswith('"'):
        inner = inner[1:-1]
    return WELL_FORMED_KEY.match(inner) is not None


@schemathesis.hook
def before_call(context, case, **kwargs):
    headers = case.headers
    if not headers:
        return
    for name in list(headers):
        if name.lower() == "idempotency-key":
            value = headers[name]
            if isinstance(value, str) and well_formed(value):
                headers[name] = f"st-{uuid.uuid4()}"
