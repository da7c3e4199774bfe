#!/usr/bin/env bash
# Render every kustomize target under k8s/ (base and overlays; components are
# rendered through the overlays that use them) with `kubectl kustomize`, and
# validate every manifest against the Kubernetes JSON schemas of one pinned
# Kubernetes version with kubernetes-validate in strict mode, plus the
# project's conventions (deploy/k8s_manifest_check.py).
#
# Installs what it needs when missing: kubectl (Debian's kubernetes-client,
# root only) and kubernetes-validate (PyPI, into a venv under
# ${XDG_CACHE_HOME:-$HOME/.cache}/erp-venv). No other network access.
#
# Env: K8S_VERSION (default 1.33.0; one that kubernetes-validate ships),
#      KUBERNETES_VALIDATE_VERSION (default 1.37.0), ERP_VENV.
# Last line: "N passed, M failed" (N = manifests validated). Exit 0 iff M = 0.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
K8S_VERSION=${K8S_VERSION:-1.33.0}
KV_VERSION=${KUBERNETES_VALIDATE_VERSION:-1.37.0}
VENV=${ERP_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/erp-venv}
CHECK="$ROOT/deploy/k8s_manifest_check.py"

say() { printf 'test-k8s: %s\n' "$*"; }

# Summary for a run that could not validate anything.
give_up() {
    say "$*" >&2
    echo "0 passed, 1 failed"
    exit 1
}

apt_install() {
    [ "$(id -u)" -eq 0 ] || return 1
    say "installing Debian package(s): $*"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

ensure_kubectl() {
    if ! command -v kubectl >/dev/null 2>&1; then
        apt_install kubernetes-client || give_up "kubectl is missing (install Debian's kubernetes-client as root)"
    fi
    # The manifests use kustomize v5 (components, labels.includeTemplates).
    # kubectl >= 1.27 embeds it; older ones (bookworm's kubernetes-client
    # 1.20 embeds kustomize v2) cannot render them.
    local kv
    kv=$(kubectl version --client 2>/dev/null | sed -n 's/^Kustomize Version: v\{0,1\}\([0-9][0-9]*\).*/\1/p')
    if [ -z "$kv" ] || [ "$kv" -lt 5 ]; then
        give_up "kubectl $(kubectl version --client 2>/dev/null | head -n1) embeds kustomize older than v5; need kubectl >= 1.27"
    fi
}

ensure_validator() {
    local have
    have=$("$VENV/bin/python" -c 'from kubernetes_validate.version import __version__ as v; print(v)' 2>/dev/null || true)
    [ "$have" = "$KV_VERSION" ] && return 0
    if [ ! -x "$VENV/bin/pip" ]; then
        mkdir -p "$(dirname "$VENV")"
        if ! python3 -m venv "$VENV" >/dev/null 2>&1; then
            rm -rf "$VENV"
            apt_install python3-venv || give_up "python3 -m venv failed (install python3-venv)"
            python3 -m venv "$VENV"
        fi
    fi
    say "installing kubernetes-validate==$KV_VERSION into $VENV"
    "$VENV/bin/pip" install -q --disable-pip-version-check "kubernetes-validate==$KV_VERSION" \
        || give_up "pip install kubernetes-validate==$KV_VERSION failed"
}

ensure_kubectl
ensure_validator
PY="$VENV/bin/python"

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# Guard against a validator that lets everything through: a manifest with
# an unknown field must fail in strict mode.
cat >"$WORK/selftest.yaml" <<'EOF'
apiVersion: v1
kind: ConfigMap
metadata:
  name: selftest
data:
  a: b
unknownField: true
EOF
if "$PY" "$CHECK" "$K8S_VERSION" "$WORK/selftest.counts" "selftest=$WORK/selftest.yaml" >"$WORK/selftest.out" 2>&1 \
    || [ "$(cat "$WORK/selftest.counts" 2>/dev/null)" != "0 1" ]; then
    cat "$WORK/selftest.out" >&2
    give_up "self-test: the validator accepted a manifest with an unknown field (or crashed)"
fi

# Targets: every kustomization under k8s/ that is not a Component.
targets=()
while IFS= read -r k; do
    grep -q '^kind: *Component' "$k" && continue
    targets+=("$(dirname "${k#"$ROOT"/}")")
done < <(find "$ROOT/k8s" -name kustomization.yaml -o -name kustomization.yml | sort)
[ "${#targets[@]}" -gt 0 ] || give_up "no kustomize target under k8s/"

render_failed=0
args=()
for t in "${targets[@]}"; do
    out="$WORK/$(echo "$t" | tr '/' '_').yaml"
    if kubectl kustomize "$ROOT/$t" >"$out" 2>"$out.err"; then
        if [ -s "$out.err" ]; then
            # kustomize warns on deprecated fields: keep the tree clean.
            say "FAIL $t: kustomize warnings:"
            sed 's/^/       /' "$out.err"
            render_failed=$((render_failed + 1))
        else
            say "rendered $t ($(grep -c '^kind:' "$out") manifests)"
            args+=("$t=$out")
        fi
    else
        say "FAIL $t: kubectl kustomize failed:"
        sed 's/^/       /' "$out.err"
        render_failed=$((render_failed + 1))
    fi
done

passed=0
failed=0
if [ "${#args[@]}" -gt 0 ]; then
    say "validating against Kubernetes $K8S_VERSION (kubernetes-validate $KV_VERSION, strict)"
    "$PY" "$CHECK" "$K8S_VERSION" "$WORK/counts" "${args[@]}" || true
    if [ -s "$WORK/counts" ]; then
        read -r passed failed <"$WORK/counts"
    else
        say "FAIL the manifest check crashed"
        failed=1
    fi
fi
failed=$((failed + render_failed))
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
