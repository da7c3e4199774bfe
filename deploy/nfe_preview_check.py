#!/usr/bin/env python3
"""The NF-e preview of a demo order, checked by an independent validator.

The fiscal service checks its own bodies against the Nuvem Fiscal OpenAPI
description (services/fiscal/src/nuvemfiscal/tests/spec.rs); this is a second
opinion that shares no code with it: openapi-schema-validator (PyPI), in the
OpenAPI 3.0 dialect, for a request body (OAS30WriteValidator: readOnly
properties may not be sent) with the OAS 3.0 formats checked, against the
spec's `NfePedidoEmissao` with every `$ref` resolved in the spec itself.

Against a running server with the demo data (deploy/api-contract.sh runs it
before schemathesis): the demo company's open billing order with items is
invoiced through the API (`PUT /pedidogenerator/{id}/{emp}/{serie}`), then
`GET /pedidofatxml/previa/{id}/{emp}/{serie}` is asked until the fiscal
service has the invoiced order (its fact arrives by the bus), and its answer
must validate. The validator is then shown a few broken copies of the same
body (a required group removed, a wrong type deep behind `$ref`s, a value
outside an enum, an empty item list, a date in the screen's format): each must
be refused, so a validator that accepts anything (an unresolved `$ref`, a
missing format checker) fails the check instead of passing it.

Usage: nfe_preview_check.py BASE_URL TOKEN SPEC_YAML [--emp N]
Exit status 0 when the preview is valid and every broken copy is refused.
"""

import argparse
import copy
import decimal
import json
import sys
import time
import urllib.error
import urllib.request

import yaml
from openapi_schema_validator import OAS30WriteValidator, oas30_format_checker

SCHEMA = "NfePedidoEmissao"
WAIT_SECONDS = 90


class Api:
    def __init__(self, base, token):
        self.base = base.rstrip("/")
        self.token = token

    def call(self, method, path, body=None):
        """(status, parsed JSON or None) of one call; HTTP errors are answers too."""
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method)
        req.add_header("Authorization", f"Bearer {self.token}")
        req.add_header("Accept", "application/json")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=60) as res:
                raw = res.read()
                return res.status, (json.loads(raw) if raw else None)
        except urllib.error.HTTPError as e:
            raw = e.read()
            try:
                return e.code, json.loads(raw)
            except ValueError:
                return e.code, raw.decode(errors="replace")


class NoDates(yaml.SafeLoader):
    """YAML without implicit timestamps: the spec's examples stay strings."""


NoDates.yaml_implicit_resolvers = {
    k: [(tag, rx) for tag, rx in v if tag != "tag:yaml.org,2002:timestamp"]
    for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def validator(spec_path):
    with open(spec_path, encoding="utf-8") as f:
        spec = yaml.load(f, Loader=NoDates)
    if not str(spec.get("openapi", "")).startswith("3.0"):
        sys.exit(f"nfe-preview: {spec_path} is not an OpenAPI 3.0 description")
    if SCHEMA not in spec["components"]["schemas"]:
        sys.exit(f"nfe-preview: {SCHEMA} is not in {spec_path}")
    # The schema as a document of its own whose `$ref`s point into the spec's
    # components, so the validator resolves them inside this one document.
    root = {"$ref": f"#/components/schemas/{SCHEMA}", "components": spec["components"]}
    return OAS30WriteValidator(root, format_checker=oas30_format_checker)


def open_order(api, emp):
    """(id, serie) of the company's first open order with a total; the demo
    makes its documents once the services run, so it may come a moment after
    the server is ready."""
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        status, rows = api.call(
            "POST", f"/pedido/{emp}", {"PEDF_SITUACAO": "A", "ORDENACAO": "PEDF_ID", "LIMIT": 100}
        )
        if status not in (200, 204):
            sys.exit(f"nfe-preview: listing the orders answered {status}: {rows}")
        for row in rows or []:
            if decimal.Decimal(str(row.get("PEDF_VLR_TOTAL") or 0)) > 0:
                return row["PEDF_ID"], str(row["PEDF_SERIE"])
        if time.monotonic() > deadline:
            sys.exit(f"nfe-preview: company {emp} has no open billing order with items (the demo makes one)")
        time.sleep(0.5)


def preview_of_invoiced(api, emp):
    pedf, serie = open_order(api, emp)
    status, body = api.call("PUT", f"/pedidogenerator/{pedf}/{emp}/{serie}")
    if status != 200:
        sys.exit(f"nfe-preview: invoicing order {pedf}/{serie} answered {status}: {body}")
    path = f"/pedidofatxml/previa/{pedf}/{emp}/{serie}"
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        status, body = api.call("GET", path)
        if status == 200:
            print(f"nfe-preview: GET {path} answered the request of order {pedf}/{serie}")
            return body
        # The fiscal service learns of the invoice by its fact: until then the
        # order is not invoiced for it (a 4xx); anything else is an answer.
        if status >= 500 or time.monotonic() > deadline:
            sys.exit(f"nfe-preview: GET {path} answered {status}: {body}")
        time.sleep(0.5)


def errors_of(check, body):
    return sorted(check.iter_errors(body), key=lambda e: list(e.absolute_path))


def where(error):
    return "/".join(str(p) for p in error.absolute_path) or "(root)"


def broken_copies(body):
    """Copies of a valid body that the spec refuses, each with what breaks it."""

    def broken(what, change):
        b = copy.deepcopy(body)
        change(b)
        return what, b

    inf = "infNFe"
    return [
        broken("no emitter (required infNFe.emit)", lambda b: b[inf].pop("emit")),
        broken(
            "the number as text (infNFe.ide.nNF is an integer)",
            lambda b: b[inf]["ide"].__setitem__("nNF", str(b[inf]["ide"]["nNF"])),
        ),
        broken("an environment outside the enum", lambda b: b.__setitem__("ambiente", "teste")),
        broken("no items (infNFe.det needs one)", lambda b: b[inf].__setitem__("det", [])),
        broken(
            "the emission date as the screen writes it (format date-time)",
            lambda b: b[inf]["ide"].__setitem__("dhEmi", "31/12/2025 10:00:00"),
        ),
        broken(
            "an item's quantity as text (infNFe.det[0].prod.qCom is a number)",
            lambda b: b[inf]["det"][0]["prod"].__setitem__("qCom", "1,0000"),
        ),
    ]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("base_url")
    ap.add_argument("token")
    ap.add_argument("spec")
    ap.add_argument("--emp", type=int, default=1)
    ap.add_argument("--save", help="write the preview to this file")
    args = ap.parse_args()

    check = validator(args.spec)
    body = preview_of_invoiced(Api(args.base_url, args.token), args.emp)
    if args.save:
        with open(args.save, "w", encoding="utf-8") as f:
            json.dump(body, f, ensure_ascii=False, indent=2)

    failed = False
    errors = errors_of(check, body)
    for e in errors[:40]:
        print(f"nfe-preview: INVALID at {where(e)}: {e.message[:300]}")
    if errors:
        print(f"nfe-preview: the preview breaks {SCHEMA} in {len(errors)} place(s)")
        failed = True
    else:
        items = len(body["infNFe"]["det"])
        print(f"nfe-preview: the preview ({items} item(s)) validates against {SCHEMA}")

    for what, b in broken_copies(body):
        found = errors_of(check, b)
        if found:
            print(f"nfe-preview: refused as it must: {what} -> {where(found[0])}")
        else:
            print(f"nfe-preview: NOT REFUSED: {what}: the validator is not checking the body")
            failed = True
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
