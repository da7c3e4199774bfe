"""Validate rendered Kubernetes manifests (called by deploy/test-k8s.sh).

Usage: python k8s_manifest_check.py K8S_VERSION COUNTS_FILE TARGET=RENDERED.yaml [...]

Each manifest (one YAML document of a rendered kustomize target) is checked
against the Kubernetes JSON schemas of K8S_VERSION with kubernetes-validate in
strict mode (unknown fields and unknown kinds fail), then against the
project's conventions:
  - pods: non-root, RuntimeDefault seccomp, no privilege escalation, read-only
    root filesystem, all capabilities dropped, cpu+memory requests and limits,
    every volumeMount backed by a volume, named probe ports declared;
  - long-running workloads: liveness and readiness probes; ERP roles probe
    /healthz and /readyz and carry Prometheus scrape annotations whose port is
    a container port;
  - references inside a deployable target (not the base): ConfigMaps and
    Secrets used by pods exist, Services select some pod and name its ports,
    Ingress backends exist, overlay images carry a tag.
Prints one line per manifest; writes "PASSED FAILED" to COUNTS_FILE for the
caller, which prints the summary line.
"""

import sys

import yaml
from kubernetes_validate import utils as kv

WORKLOADS = {"Deployment", "StatefulSet", "DaemonSet", "Job", "CronJob"}
LONG_RUNNING = {"Deployment", "StatefulSet", "DaemonSet"}


def pod_template(doc):
    spec = doc.get("spec") or {}
    if doc["kind"] == "CronJob":
        return ((spec.get("jobTemplate") or {}).get("spec") or {}).get("template") or {}
    return spec.get("template") or {}


def schema_errors(doc, version):
    try:
        kv.validate(doc, version, strict=True)
    except kv.ValidationError as e:
        path = ".".join(str(p) for p in e.path)
        return [f"schema: {path}: {e.message}"]
    except kv.SchemaNotFoundError as e:
        return [f"schema: {e.message}"]
    except (kv.InvalidSchemaError, kv.VersionNotSupportedError) as e:
        return [f"schema: {e.message}"]
    return []


def pod_errors(doc):
    errs = []
    tpl = pod_template(doc)
    meta = tpl.get("metadata") or {}
    pod = tpl.get("spec") or {}
    psc = pod.get("securityContext") or {}
    if psc.get("runAsNonRoot") is not True:
        errs.append("pod securityContext.runAsNonRoot is not true")
    if (psc.get("seccompProfile") or {}).get("type") not in ("RuntimeDefault", "Localhost"):
        errs.append("pod securityContext.seccompProfile is not RuntimeDefault")
    volumes = {v["name"] for v in pod.get("volumes") or []}
    claims = {
        (c.get("metadata") or {}).get("name")
        for c in (doc.get("spec") or {}).get("volumeClaimTemplates") or []
    }
    labels = meta.get("labels") or {}
    annotations = meta.get("annotations") or {}
    is_erp = labels.get("app.kubernetes.io/part-of") == "erp"
    all_ports = set()
    for c in pod.get("containers") or []:
        name = c["name"]
        sc = c.get("securityContext") or {}
        if sc.get("allowPrivilegeEscalation") is not False:
            errs.append(f"container {name}: allowPrivilegeEscalation is not false")
        if sc.get("readOnlyRootFilesystem") is not True:
            errs.append(f"container {name}: readOnlyRootFilesystem is not true")
        if "ALL" not in ((sc.get("capabilities") or {}).get("drop") or []):
            errs.append(f"container {name}: capabilities.drop lacks ALL")
        res = c.get("resources") or {}
        for kind in ("requests", "limits"):
            for r in ("cpu", "memory"):
                if r not in (res.get(kind) or {}):
                    errs.append(f"container {name}: no resources.{kind}.{r}")
        for m in c.get("volumeMounts") or []:
            if m["name"] not in volumes and m["name"] not in claims:
                errs.append(f"container {name}: volumeMount {m['name']} has no volume")
        ports = {p.get("name"): p["containerPort"] for p in c.get("ports") or []}
        all_ports.update(ports.values())
        probes = {}
        for probe in ("startupProbe", "livenessProbe", "readinessProbe"):
            p = c.get(probe)
            if not p:
                continue
            probes[probe] = p
            for handler in ("httpGet", "tcpSocket", "grpc"):
                port = (p.get(handler) or {}).get("port")
                if isinstance(port, str) and port not in ports:
                    errs.append(f"container {name}: {probe} port {port!r} is not a container port")
        if doc["kind"] in LONG_RUNNING:
            for probe in ("livenessProbe", "readinessProbe"):
                if probe not in probes:
                    errs.append(f"container {name}: no {probe}")
            if is_erp:
                want = {"livenessProbe": "/healthz", "readinessProbe": "/readyz"}
                for probe, path in want.items():
                    got = ((probes.get(probe) or {}).get("httpGet") or {}).get("path")
                    if got != path:
                        errs.append(f"container {name}: {probe} path is {got!r}, not {path}")
    if is_erp and doc["kind"] in LONG_RUNNING:
        if annotations.get("prometheus.io/scrape") != "true":
            errs.append("ERP pod without prometheus.io/scrape: \"true\"")
        port = annotations.get("prometheus.io/port", "")
        if not port.isdigit() or int(port) not in all_ports:
            errs.append(f"prometheus.io/port {port!r} is not a container port")
    return errs


def reference_errors(doc, index, pods):
    """Cross-manifest checks for a deployable (non-base) target."""
    errs = []
    kind = doc["kind"]
    if kind in WORKLOADS:
        pod = pod_template(doc).get("spec") or {}
        for c in (pod.get("containers") or []) + (pod.get("initContainers") or []):
            image = c.get("image", "")
            if ":" not in image.rsplit("/", 1)[-1] and "@" not in image:
                errs.append(f"container {c['name']}: image {image!r} has no tag")
            refs = []
            for ef in c.get("envFrom") or []:
                if "configMapRef" in ef:
                    refs.append(("ConfigMap", ef["configMapRef"]["name"], ef["configMapRef"]))
                if "secretRef" in ef:
                    refs.append(("Secret", ef["secretRef"]["name"], ef["secretRef"]))
            for e in c.get("env") or []:
                vf = e.get("valueFrom") or {}
                if "configMapKeyRef" in vf:
                    refs.append(("ConfigMap", vf["configMapKeyRef"]["name"], vf["configMapKeyRef"]))
                if "secretKeyRef" in vf:
                    refs.append(("Secret", vf["secretKeyRef"]["name"], vf["secretKeyRef"]))
            for rkind, rname, ref in refs:
                if ref.get("optional"):
                    continue
                if (rkind, rname) not in index:
                    errs.append(f"container {c['name']}: {rkind} {rname} not in this target")
                elif "key" in ref:
                    target = index[(rkind, rname)]
                    keys = set(target.get("data") or {}) | set(target.get("stringData") or {})
                    if ref["key"] not in keys:
                        errs.append(f"container {c['name']}: {rkind} {rname} has no key {ref['key']}")
    if kind == "Service":
        sel = (doc.get("spec") or {}).get("selector") or {}
        matching = [p for p in pods if sel and sel.items() <= p["labels"].items()]
        if not matching:
            errs.append(f"selector {sel} matches no pod template")
        for port in (doc.get("spec") or {}).get("ports") or []:
            tp = port.get("targetPort")
            if isinstance(tp, str) and not any(tp in p["ports"] for p in matching):
                errs.append(f"targetPort {tp!r} is not a port of the selected pods")
    if kind == "Ingress":
        for rule in (doc.get("spec") or {}).get("rules") or []:
            for path in ((rule.get("http") or {}).get("paths")) or []:
                svc = (path.get("backend") or {}).get("service") or {}
                target = index.get(("Service", svc.get("name")))
                if target is None:
                    errs.append(f"backend Service {svc.get('name')} not in this target")
                    continue
                pname = (svc.get("port") or {}).get("name")
                names = {p.get("name") for p in (target.get("spec") or {}).get("ports") or []}
                if pname and pname not in names:
                    errs.append(f"backend port {pname!r} not a port of Service {svc['name']}")
    return errs


def main(argv):
    version, counts_file = argv[1], argv[2]
    passed = failed = 0
    for arg in argv[3:]:
        target, _, path = arg.partition("=")
        with open(path) as f:
            docs = [d for d in yaml.safe_load_all(f) if d]
        index = {(d["kind"], d["metadata"]["name"]): d for d in docs}
        pods = []
        for d in docs:
            if d["kind"] in WORKLOADS:
                tpl = pod_template(d)
                names = set()
                for c in (tpl.get("spec") or {}).get("containers") or []:
                    names.update(p.get("name") for p in c.get("ports") or [])
                pods.append({"labels": (tpl.get("metadata") or {}).get("labels") or {},
                             "ports": names})
        deployable = target.rstrip("/").rsplit("/", 1)[-1] != "base"
        if not docs:
            print(f"FAIL {target}: renders no manifest")
            failed += 1
        for d in docs:
            errs = schema_errors(d, version)
            if d["kind"] in WORKLOADS:
                errs += pod_errors(d)
            if deployable:
                errs += reference_errors(d, index, pods)
            ident = f"{target} {d['kind']}/{d['metadata']['name']}"
            if errs:
                failed += 1
                print(f"FAIL {ident}")
                for e in errs:
                    print(f"       {e}")
            else:
                passed += 1
                print(f"ok   {ident}")
    with open(counts_file, "w") as f:
        f.write(f"{passed} {failed}\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
