#!/usr/bin/env bash
# The alerting rules and both Prometheus configurations, checked by promtool:
#   - promtool check rules deploy/prometheus/alerts.yml;
#   - promtool test rules deploy/prometheus/alerts_test.yml (every alert has
#     series that fire it and series that must not);
#   - promtool check config on deploy/prometheus/prometheus.yml and
#     prometheus-kubernetes.yml (which load alerts.yml);
#   - k8s/components/monitoring holds the same two files (kustomize reads
#     nothing outside its folder, so they are copies).
#
# Installs Debian's `prometheus` package (it ships promtool) when promtool is
# missing and we are root; its service is stopped again, since it would take
# port 9090, the services' admin port. PROMTOOL=/path/to/promtool picks another.
#
# Debian builds Prometheus without Kubernetes service discovery: such a promtool
# rejects `kubernetes_sd_configs`. Then prometheus-kubernetes.yml is checked as
# a copy where each kubernetes_sd_configs block (itself checked for known keys
# and role) is replaced by a static target, and the script says so; an upstream
# promtool (PROMTOOL=...) checks the file as it is.
#
# Usage: deploy/test-alerts.sh [--sync]   (--sync: copy deploy/prometheus's
# files over k8s/components/monitoring's first)
# Last line: "N passed, M failed". Exit 0 iff M = 0.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PROM="$ROOT/deploy/prometheus"
K8S="$ROOT/k8s/components/monitoring"
say() { printf 'test-alerts: %s\n' "$*"; }

if [ "${1:-}" = "--sync" ]; then
    cp "$PROM/alerts.yml" "$K8S/alerts.yml"
    cp "$PROM/prometheus-kubernetes.yml" "$K8S/prometheus.yml"
    say "copied alerts.yml and prometheus-kubernetes.yml to k8s/components/monitoring"
fi

PROMTOOL=${PROMTOOL:-promtool}
if ! command -v "$PROMTOOL" >/dev/null 2>&1; then
    if [ "$(id -u)" -ne 0 ]; then
        say "promtool is missing (install Debian's prometheus package as root, or set PROMTOOL)" >&2
        echo "0 passed, 1 failed"
        exit 1
    fi
    say "installing Debian package prometheus (for promtool)"
    apt-get update -qq >/dev/null
    # No service start during the install (policy-rc.d 101), so nothing binds 9090.
    policy=/usr/sbin/policy-rc.d
    had_policy=0
    [ -e "$policy" ] && had_policy=1
    if [ "$had_policy" -eq 0 ]; then printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy"; fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus >/dev/null || true
    if [ "$had_policy" -eq 0 ]; then rm -f "$policy"; fi
    service prometheus stop >/dev/null 2>&1 || true
    command -v "$PROMTOOL" >/dev/null 2>&1 || { say "promtool still missing" >&2; echo "0 passed, 1 failed"; exit 1; }
fi
say "$("$PROMTOOL" --version 2>&1 | head -n 1)"

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
passed=0
failed=0
check() {
    local name=$1
    shift
    if "$@" >"$WORK/out" 2>&1; then
        passed=$((passed + 1))
        say "ok   $name"
    else
        failed=$((failed + 1))
        say "FAIL $name"
        sed 's/^/       /' "$WORK/out"
    fi
}

check "promtool check rules alerts.yml" "$PROMTOOL" check rules "$PROM/alerts.yml"
# Run where the test file is: its rule_files are relative to the working directory.
check "promtool test rules alerts_test.yml" bash -c 'cd "$1" && "$2" test rules alerts_test.yml' _ "$PROM" "$PROMTOOL"
check "promtool check config prometheus.yml" "$PROMTOOL" check config "$PROM/prometheus.yml"

# The Kubernetes configuration: as it is when this promtool knows Kubernetes
# discovery, else with the discovery swapped for a static target.
"$PROMTOOL" check config "$PROM/prometheus-kubernetes.yml" >"$WORK/k8s.out" 2>&1 && k8s_ok=1 || k8s_ok=0
if [ "$k8s_ok" -eq 1 ]; then
    passed=$((passed + 1))
    say "ok   promtool check config prometheus-kubernetes.yml"
elif grep -q 'field kubernetes_sd_configs not found' "$WORK/k8s.out"; then
    say "this promtool has no Kubernetes discovery (Debian's build): checking prometheus-kubernetes.yml with it swapped for a static target"
    if ! python3 -c 'import yaml' 2>/dev/null && [ "$(id -u)" -eq 0 ]; then
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-yaml >/dev/null || true
    fi
    check "kubernetes_sd_configs blocks of prometheus-kubernetes.yml" python3 - "$PROM/prometheus-kubernetes.yml" "$WORK/k8s" <<'PY'
import os, shutil, sys
import yaml

src, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
cfg = yaml.safe_load(open(src))
# The keys and roles of Prometheus 2.x's kubernetes_sd_config.
KEYS = {"api_server", "role", "kubeconfig_file", "namespaces", "selectors", "attach_metadata",
        "basic_auth", "authorization", "oauth2", "proxy_url", "no_proxy", "proxy_from_environment",
        "proxy_connect_header", "follow_redirects", "enable_http2", "tls_config"}
ROLES = {"node", "pod", "service", "endpoints", "endpointslice", "ingress"}
errs = []
swapped = 0
for sc in cfg.get("scrape_configs") or []:
    sds = sc.pop("kubernetes_sd_configs", None)
    if sds is None:
        continue
    for sd in sds:
        unknown = set(sd) - KEYS
        if unknown:
            errs.append(f"{sc['job_name']}: unknown kubernetes_sd_configs keys {sorted(unknown)}")
        if sd.get("role") not in ROLES:
            errs.append(f"{sc['job_name']}: role {sd.get('role')!r} not one of {sorted(ROLES)}")
        ns = sd.get("namespaces") or {}
        if set(ns) - {"names", "own_namespace"} or not all(isinstance(n, str) for n in ns.get("names") or []):
            errs.append(f"{sc['job_name']}: namespaces must be {{names: [..], own_namespace: bool}}")
    sc["static_configs"] = [{"targets": ["placeholder.invalid:9090"]}]
    swapped += 1
if not swapped:
    errs.append("no kubernetes_sd_configs found, yet promtool rejected the file")
for e in errs:
    print(e)
yaml.safe_dump(cfg, open(os.path.join(out, "prometheus.yml"), "w"), sort_keys=False)
for rf in cfg.get("rule_files") or []:
    shutil.copy(os.path.join(os.path.dirname(src), rf), os.path.join(out, rf))
sys.exit(1 if errs else 0)
PY
    check "promtool check config prometheus-kubernetes.yml (static target in place of kubernetes_sd_configs)" \
        "$PROMTOOL" check config "$WORK/k8s/prometheus.yml"
else
    failed=$((failed + 1))
    say "FAIL promtool check config prometheus-kubernetes.yml"
    sed 's/^/       /' "$WORK/k8s.out"
fi

check "k8s/components/monitoring/alerts.yml = deploy/prometheus/alerts.yml (else: $0 --sync)" \
    cmp "$PROM/alerts.yml" "$K8S/alerts.yml"
check "k8s/components/monitoring/prometheus.yml = deploy/prometheus/prometheus-kubernetes.yml (else: $0 --sync)" \
    cmp "$PROM/prometheus-kubernetes.yml" "$K8S/prometheus.yml"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
