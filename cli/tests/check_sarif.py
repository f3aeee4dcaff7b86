#!/usr/bin/python3
"""Checks a SARIF file against the SARIF 2.1.0 rules for every property ggufsafe writes, and
against GitHub code scanning's documented upload requirements and limits.

usage: check_sarif.py FILE            every rule; exit 0 when all hold, 1 (listing them) otherwise
       check_sarif.py --self-test FILE
                                      FILE must pass, and for each rule a copy of FILE mutated to
                                      break that rule must be rejected by that rule: exit 0 when
                                      every rule catches its case
       check_sarif.py --list          the rules, by section

The rules are written in our own words from OASIS SARIF 2.1.0 (with Errata 01) and GitHub's
"SARIF support for code scanning" and "SARIF results exceed limits" pages; section numbers are
the standard's, each checked against the headings of the 2.1.0 text the OASIS SARIF TC publishes
(github.com/oasis-tcs/sarif-spec, sarif-2.1/prose/sarif-v2.1.0-committee-specification.htm:
semanticVersion is 3.19.12, helpUri 3.49.12 and help 3.49.13, artifact.length 3.24.5,
byteOffset and byteLength 3.30.11 and 3.30.12, URI references 3.10.1). Python standard library only (Debian's /usr/bin/python3).
"""
import copy
import gzip
import json
import re
import sys

# RFC 3986: the characters a URI reference may hold (after percent-encoding), and a scheme.
URI_CHARS = re.compile(r"^[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]*$")
PERCENT_OK = re.compile(r"%(?![0-9A-Fa-f]{2})")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:")
# Semantic Versioning 2.0.0, section 2 and the grammar of semver.org.
SEMVER = re.compile(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
                    r"(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$")
LEVELS = ("none", "note", "warning", "error")
GITHUB_MAX_RUNS = 20
GITHUB_MAX_RESULTS = 25000
GITHUB_MAX_RULES = 25000
GITHUB_MAX_LOCATIONS = 1000
GITHUB_MAX_TAGS = 20
GITHUB_MAX_GZIP_BYTES = 10 * 1024 * 1024


def is_uri_reference(s):
    return isinstance(s, str) and URI_CHARS.match(s) is not None and not PERCENT_OK.search(s)


def is_absolute_uri(s):
    return is_uri_reference(s) and SCHEME.match(s) is not None and "#" not in s


def runs(doc):
    r = doc.get("runs")
    return r if isinstance(r, list) else []


def results(doc):
    for run in runs(doc):
        for res in run.get("results") or []:
            yield run, res


def rules_of(run):
    return ((run.get("tool") or {}).get("driver") or {}).get("rules") or []


def physical(res):
    for loc in res.get("locations") or []:
        if isinstance(loc, dict) and "physicalLocation" in loc:
            yield loc["physicalLocation"]


def artifact_locations(doc):
    """Every artifactLocation of results, artifacts and notifications, with its run."""
    for run in runs(doc):
        for res in run.get("results") or []:
            for p in physical(res):
                if "artifactLocation" in p:
                    yield run, p["artifactLocation"]
        for a in run.get("artifacts") or []:
            if "location" in a:
                yield run, a["location"]
        for inv in run.get("invocations") or []:
            for n in inv.get("toolExecutionNotifications") or []:
                for loc in n.get("locations") or []:
                    p = loc.get("physicalLocation") or {}
                    if "artifactLocation" in p:
                        yield run, p["artifactLocation"]


def fail_each(items, why):
    return [why(x) for x in items]


# ---- the rules: (id, source, text, check(doc) -> [complaints], mutate(doc)) ----------------

def c_version(d):
    return [] if d.get("version") == "2.1.0" else [f"version is {d.get('version')!r}"]


def c_schema(d):
    s = d.get("$schema")
    return [] if s is None or is_absolute_uri(s) else [f"$schema {s!r} is not an absolute URI"]


def c_runs(d):
    return [] if isinstance(d.get("runs"), list) else ["runs is missing or not an array"]


def c_tool(d):
    return [f"run {i} has no tool.driver" for i, r in enumerate(runs(d))
            if not isinstance((r.get("tool") or {}).get("driver"), dict)]


def c_driver_name(d):
    return [f"run {i}: driver.name missing or empty" for i, r in enumerate(runs(d))
            if not ((r.get("tool") or {}).get("driver") or {}).get("name")]


def c_semver(d):
    out = []
    for i, r in enumerate(runs(d)):
        v = ((r.get("tool") or {}).get("driver") or {}).get("semanticVersion")
        if v is not None and not (isinstance(v, str) and SEMVER.match(v)):
            out.append(f"run {i}: semanticVersion {v!r} is not SemVer 2.0.0")
    return out


def c_information_uri(d):
    out = []
    for i, r in enumerate(runs(d)):
        v = ((r.get("tool") or {}).get("driver") or {}).get("informationUri")
        if v is not None and not is_absolute_uri(v):
            out.append(f"run {i}: informationUri {v!r} is not an absolute URI")
    return out


def c_rule_ids(d):
    out = []
    for i, r in enumerate(runs(d)):
        seen = set()
        for k, rule in enumerate(rules_of(r)):
            rid = rule.get("id")
            if not isinstance(rid, str) or not rid:
                out.append(f"run {i} rule {k} has no id")
            elif rid in seen:
                out.append(f"run {i}: rule id {rid!r} twice")
            seen.add(rid)
    return out


def c_help_uri(d):
    return [f"rule {rule.get('id')!r}: helpUri {rule['helpUri']!r} is not an absolute URI"
            for r in runs(d) for rule in rules_of(r)
            if "helpUri" in rule and not is_absolute_uri(rule["helpUri"])]


def c_multiformat(d):
    out = []
    for r in runs(d):
        for rule in rules_of(r):
            for key in ("shortDescription", "fullDescription", "help"):
                m = rule.get(key)
                if m is not None and not (isinstance(m, dict) and isinstance(m.get("text"), str)):
                    out.append(f"rule {rule.get('id')!r}: {key} has no text")
    return out


def c_default_level(d):
    return [f"rule {rule.get('id')!r}: defaultConfiguration.level {lv!r}"
            for r in runs(d) for rule in rules_of(r)
            for lv in [(rule.get("defaultConfiguration") or {}).get("level", "warning")]
            if lv not in LEVELS]


def c_rule_id_known(d):
    out = []
    for r, res in results(d):
        ids = {rule.get("id") for rule in rules_of(r)}
        if ids and res.get("ruleId") not in ids:
            out.append(f"result ruleId {res.get('ruleId')!r} is not a rule of the driver")
    return out


def c_level(d):
    return [f"result level {res.get('level')!r}" for _, res in results(d)
            if res.get("level", "warning") not in LEVELS]


def c_message(d):
    return [f"result {res.get('ruleId')!r} without message text" for _, res in results(d)
            if not isinstance((res.get("message") or {}).get("text"), str)]


def c_physical(d):
    return [f"result {res.get('ruleId')!r}: a physicalLocation without artifactLocation"
            for _, res in results(d) for p in physical(res)
            if "artifactLocation" not in p and "address" not in p]


def c_uri(d):
    return [f"artifactLocation uri {a.get('uri')!r} is not a URI reference"
            for _, a in artifact_locations(d) if "uri" in a and not is_uri_reference(a["uri"])]


def c_uri_base(d):
    return [f"uri {a.get('uri')!r} is absolute but has uriBaseId {a['uriBaseId']!r}"
            for _, a in artifact_locations(d)
            if "uriBaseId" in a and SCHEME.match(a.get("uri", "")) is not None]


def c_base_ids(d):
    out = []
    for r in runs(d):
        for name, loc in (r.get("originalUriBaseIds") or {}).items():
            u = loc.get("uri", "")
            if not u.endswith("/"):
                out.append(f"originalUriBaseIds.{name}.uri {u!r} does not end with '/'")
            if "uriBaseId" not in loc and not is_absolute_uri(u):
                out.append(f"originalUriBaseIds.{name}.uri {u!r} is not absolute")
        for _, a in ((r, a) for rr, a in artifact_locations(d) if rr is r):
            if "uriBaseId" in a and a["uriBaseId"] not in (r.get("originalUriBaseIds") or {}):
                out.append(f"uriBaseId {a['uriBaseId']!r} is not in originalUriBaseIds")
    return out


def c_index(d):
    out = []
    for r in runs(d):
        arts = r.get("artifacts") or []
        for _, res in ((r, x) for x in r.get("results") or []):
            for p in physical(res):
                a = p.get("artifactLocation") or {}
                if "index" not in a:
                    continue
                i = a["index"]
                if not isinstance(i, int) or not 0 <= i < len(arts):
                    out.append(f"artifactLocation index {i!r} outside run.artifacts")
                elif (arts[i].get("location") or {}).get("uri") != a.get("uri"):
                    out.append(f"artifactLocation index {i} names another artifact")
    return out


def c_artifacts_unique(d):
    out = []
    for r in runs(d):
        seen = set()
        for a in r.get("artifacts") or []:
            key = ((a.get("location") or {}).get("uriBaseId"), (a.get("location") or {}).get("uri"))
            if key in seen:
                out.append(f"artifact {key[1]!r} listed twice")
            seen.add(key)
            n = a.get("length", -1)
            if not isinstance(n, int) or n < -1:
                out.append(f"artifact {key[1]!r}: length {n!r}")
    return out


def c_region(d):
    out = []
    for _, res in results(d):
        for p in physical(res):
            g = p.get("region")
            if g is None:
                continue
            if "startLine" in g and not (isinstance(g["startLine"], int) and g["startLine"] >= 1):
                out.append(f"region startLine {g['startLine']!r}")
            for key in ("byteOffset", "byteLength"):
                if key in g and not (isinstance(g[key], int) and g[key] >= 0):
                    out.append(f"region {key} {g[key]!r}")
    return out


def c_fingerprints(d):
    return [f"result {res.get('ruleId')!r}: partialFingerprints value {v!r} is not a string"
            for _, res in results(d) for v in (res.get("partialFingerprints") or {}).values()
            if not isinstance(v, str)]


def c_baseline_state(d):
    return [f"baselineState {res['baselineState']!r}" for _, res in results(d)
            if "baselineState" in res
            and res["baselineState"] not in ("new", "unchanged", "updated", "absent")]


def c_invocation(d):
    out = []
    for r in runs(d):
        for inv in r.get("invocations") or []:
            if not isinstance(inv.get("executionSuccessful"), bool):
                out.append("an invocation without executionSuccessful")
            if "exitCode" in inv and not isinstance(inv["exitCode"], int):
                out.append(f"exitCode {inv['exitCode']!r} is not an integer")
    return out


def c_notification(d):
    return [f"a notification without message text, or level {n.get('level')!r}"
            for r in runs(d) for inv in r.get("invocations") or []
            for n in inv.get("toolExecutionNotifications") or []
            if not isinstance((n.get("message") or {}).get("text"), str)
            or n.get("level", "warning") not in LEVELS]


# GitHub code scanning.

def g_runs(d):
    n = len(runs(d))
    return [] if n <= GITHUB_MAX_RUNS else [f"{n} runs (GitHub takes at most {GITHUB_MAX_RUNS})"]


def g_results(d):
    return [f"run {i}: {len(r.get('results') or [])} results" for i, r in enumerate(runs(d))
            if len(r.get("results") or []) > GITHUB_MAX_RESULTS]


def g_rules(d):
    return [f"run {i}: {len(rules_of(r))} rules" for i, r in enumerate(runs(d))
            if len(rules_of(r)) > GITHUB_MAX_RULES]


def g_locations(d):
    return [f"result {res.get('ruleId')!r}: {len(res.get('locations') or [])} locations"
            for _, res in results(d) if len(res.get("locations") or []) > GITHUB_MAX_LOCATIONS]


def g_tags(d):
    return [f"rule {rule.get('id')!r}: {len((rule.get('properties') or {}).get('tags') or [])} tags"
            for r in runs(d) for rule in rules_of(r)
            if len((rule.get("properties") or {}).get("tags") or []) > GITHUB_MAX_TAGS]


def g_display(d):
    out = []
    for _, res in results(d):
        locs = list(physical(res))
        if len(locs) != 1:
            out.append(f"result {res.get('ruleId')!r}: {len(locs)} physical locations, not 1")
            continue
        p = locs[0]
        if not (p.get("artifactLocation") or {}).get("uri"):
            out.append(f"result {res.get('ruleId')!r}: no artifactLocation.uri")
        if "startLine" not in (p.get("region") or {}):
            out.append(f"result {res.get('ruleId')!r}: no region.startLine")
    return out


def g_relative(d):
    return [f"uri {a.get('uri')!r} is not relative to a uriBaseId"
            for _, a in artifact_locations(d)
            if "uriBaseId" not in a or SCHEME.match(a.get("uri", "")) is not None]


def g_fingerprints(d):
    return [f"result {res.get('ruleId')!r} without partialFingerprints" for _, res in results(d)
            if not res.get("partialFingerprints")]


def g_rule_id(d):
    return [f"a result without ruleId: {json.dumps(res)[:80]}" for _, res in results(d)
            if not isinstance(res.get("ruleId"), str) or not res["ruleId"]]


def g_rule_texts(d):
    return [f"rule {rule.get('id')!r} without {key}" for r in runs(d) for rule in rules_of(r)
            for key in ("shortDescription", "fullDescription", "help")
            if not (rule.get(key) or {}).get("text")]


def g_size(d):
    n = len(gzip.compress(json.dumps(d).encode("utf-8"), 6))
    return [] if n <= GITHUB_MAX_GZIP_BYTES else [f"{n} bytes gzip-compressed"]


# Mutations: each breaks exactly the rule it is paired with in a copy of a good file.

def first_result(d):
    return d["runs"][0]["results"][0]


def first_al(d):
    return next(physical(first_result(d)))["artifactLocation"]


def driver(d):
    return d["runs"][0]["tool"]["driver"]


def m_set(path_fn, key, value):
    def mutate(d):
        path_fn(d)[key] = value
    return mutate


def m_del(path_fn, key):
    def mutate(d):
        del path_fn(d)[key]
    return mutate


def m_dup_rule(d):
    driver(d)["rules"].append(copy.deepcopy(driver(d)["rules"][0]))


def m_dup_artifact(d):
    d["runs"][0]["artifacts"].append(copy.deepcopy(d["runs"][0]["artifacts"][0]))


def m_base_slash(d):
    base = d["runs"][0]["originalUriBaseIds"]["SRCROOT"]
    base["uri"] = base["uri"].rstrip("/")


def m_two_locations(d):
    r = first_result(d)
    r["locations"].append(copy.deepcopy(r["locations"][0]))


def m_absolute(d):
    a = first_al(d)
    a["uri"] = "file:///models/" + a["uri"]
    del a["uriBaseId"]
    a.pop("index", None)


def m_first_notification(key):
    def mutate(d):
        del d["runs"][0]["invocations"][0]["toolExecutionNotifications"][0][key]
    return mutate


def m_many(key, count):
    def mutate(d):
        run = d["runs"][0]
        if key == "runs":
            d["runs"] = [copy.deepcopy(run) for _ in range(count)]
        elif key == "results":
            run["results"] = [run["results"][0]] * count
        elif key == "rules":
            rules = driver(d)["rules"]
            driver(d)["rules"] = [dict(rules[0], id=f"r{i}") for i in range(count)]
        elif key == "locations":
            r = first_result(d)
            r["locations"] = [r["locations"][0]] * count
        elif key == "tags":
            driver(d)["rules"][0]["properties"] = {"tags": [f"t{i}" for i in range(count)]}
    return mutate


def m_huge(d):
    import base64
    import os
    d["runs"][0]["properties"]["padding"] = base64.b64encode(os.urandom(14 << 20)).decode()


RULES = [
    ("sarif-3.13.2", "SARIF 2.1.0 §3.13.2", "sarifLog.version SHALL be \"2.1.0\"",
     c_version, m_set(lambda d: d, "version", "2.0.0")),
    ("sarif-3.13.3", "SARIF 2.1.0 §3.13.3", "$schema, when present, SHALL be an absolute URI",
     c_schema, m_set(lambda d: d, "$schema", "sarif schema.json")),
    ("sarif-3.13.4", "SARIF 2.1.0 §3.13.4", "runs SHALL be present, an array of run objects",
     c_runs, m_del(lambda d: d, "runs")),
    ("sarif-3.14.6", "SARIF 2.1.0 §3.14.6, §3.18.2",
     "every run SHALL have a tool, and the tool SHALL have a driver",
     c_tool, m_del(lambda d: d["runs"][0]["tool"], "driver")),
    ("sarif-3.19.8", "SARIF 2.1.0 §3.19.8", "the driver (a toolComponent) SHALL have a name",
     c_driver_name, m_del(driver, "name")),
    ("sarif-3.19.12", "SARIF 2.1.0 §3.19.12",
     "semanticVersion, when present, SHALL be in Semantic Versioning 2.0.0 form",
     c_semver, m_set(driver, "semanticVersion", "1.0")),
    ("sarif-3.19.17", "SARIF 2.1.0 §3.19.17", "informationUri, when present, SHALL be absolute",
     c_information_uri, m_set(driver, "informationUri", "docs/certify.md")),
    ("sarif-3.19.23", "SARIF 2.1.0 §3.19.23, §3.49.3",
     "every rule (reportingDescriptor) SHALL have an id; the ids of a driver's rules are unique",
     c_rule_ids, m_dup_rule),
    ("sarif-3.49.9", "SARIF 2.1.0 §3.49.9, §3.49.10, §3.49.13, §3.12",
     "shortDescription, fullDescription and help are multiformatMessageStrings: text SHALL be "
     "present", c_multiformat,
     m_set(lambda d: driver(d)["rules"][0], "help", {"markdown": "x"})),
    ("sarif-3.49.12", "SARIF 2.1.0 §3.49.12", "helpUri, when present, SHALL be an absolute URI",
     c_help_uri, m_set(lambda d: driver(d)["rules"][0], "helpUri", "certify.md#x")),
    ("sarif-3.50.3", "SARIF 2.1.0 §3.50.3",
     "defaultConfiguration.level SHALL be none, note, warning or error", c_default_level,
     m_set(lambda d: driver(d)["rules"][0]["defaultConfiguration"], "level", "fatal")),
    ("sarif-3.27.5", "SARIF 2.1.0 §3.27.5, §3.52.3",
     "a result's ruleId SHALL name a rule of the driver when the driver lists rules",
     c_rule_id_known, m_set(first_result, "ruleId", "no.such_rule")),
    ("sarif-3.27.10", "SARIF 2.1.0 §3.27.10",
     "a result's level SHALL be none, note, warning or error", c_level,
     m_set(first_result, "level", "fatal")),
    ("sarif-3.27.11", "SARIF 2.1.0 §3.27.11, §3.11.8",
     "a result SHALL have a message, and a message SHALL have text (or an id)", c_message,
     m_del(first_result, "message")),
    ("sarif-3.29.2", "SARIF 2.1.0 §3.29.2",
     "a physicalLocation SHALL have an artifactLocation or an address", c_physical,
     m_del(lambda d: next(physical(first_result(d))), "artifactLocation")),
    ("sarif-3.4.3", "SARIF 2.1.0 §3.4.3, §3.10.1",
     "an artifactLocation's uri SHALL be a valid URI reference (RFC 3986)", c_uri,
     m_set(first_al, "uri", "models/good file.gguf")),
    ("sarif-3.4.4", "SARIF 2.1.0 §3.4.4",
     "when uriBaseId is present, uri SHALL be a relative reference", c_uri_base,
     m_set(first_al, "uri", "file:///models/good.gguf")),
    ("sarif-3.14.14", "SARIF 2.1.0 §3.14.14",
     "each originalUriBaseIds uri SHALL end with '/', and be absolute unless it has a "
     "uriBaseId itself; every uriBaseId used SHALL be defined there", c_base_ids,
     m_base_slash),
    ("sarif-3.4.5", "SARIF 2.1.0 §3.4.5",
     "an artifactLocation's index SHALL be an index into run.artifacts of an artifact with "
     "the same uri", c_index, m_set(first_al, "index", 99999)),
    ("sarif-3.24", "SARIF 2.1.0 §3.14.15, §3.24.5",
     "run.artifacts SHALL NOT list one artifact twice; an artifact's length SHALL be an "
     "integer >= -1", c_artifacts_unique, m_dup_artifact),
    ("sarif-3.30", "SARIF 2.1.0 §3.30.5, §3.30.11, §3.30.12",
     "region.startLine SHALL be >= 1; byteOffset and byteLength SHALL be >= 0", c_region,
     m_set(lambda d: next(physical(first_result(d)))["region"], "startLine", 0)),
    ("sarif-3.27.17", "SARIF 2.1.0 §3.27.17",
     "partialFingerprints SHALL map names to string values", c_fingerprints,
     m_set(first_result, "partialFingerprints", {"ggufsafe/v1": 7})),
    ("sarif-3.27.24", "SARIF 2.1.0 §3.27.24",
     "baselineState, when present, SHALL be new, unchanged, updated or absent",
     c_baseline_state, m_set(first_result, "baselineState", "old")),
    ("sarif-3.20.14", "SARIF 2.1.0 §3.20.14, §3.20.9",
     "an invocation SHALL have executionSuccessful (a boolean); exitCode is an integer",
     c_invocation, m_del(lambda d: d["runs"][0]["invocations"][0], "executionSuccessful")),
    ("sarif-3.58", "SARIF 2.1.0 §3.58.5, §3.58.6",
     "a notification SHALL have a message with text; its level is none, note, warning or error",
     c_notification, m_first_notification("message")),
    ("github-runs", "GitHub code scanning limits", f"at most {GITHUB_MAX_RUNS} runs per file",
     g_runs, m_many("runs", GITHUB_MAX_RUNS + 1)),
    ("github-results", "GitHub code scanning limits",
     f"at most {GITHUB_MAX_RESULTS} results per run", g_results,
     m_many("results", GITHUB_MAX_RESULTS + 1)),
    ("github-rules", "GitHub code scanning limits", f"at most {GITHUB_MAX_RULES} rules per run",
     g_rules, m_many("rules", GITHUB_MAX_RULES + 1)),
    ("github-locations", "GitHub code scanning limits",
     f"at most {GITHUB_MAX_LOCATIONS} locations per result", g_locations,
     m_many("locations", GITHUB_MAX_LOCATIONS + 1)),
    ("github-tags", "GitHub code scanning limits", f"at most {GITHUB_MAX_TAGS} tags per rule",
     g_tags, m_many("tags", GITHUB_MAX_TAGS + 1)),
    ("github-size", "GitHub: uploading a SARIF file",
     "the file is at most 10 MB gzip-compressed", g_size, m_huge),
    ("github-display", "GitHub: SARIF support, physicalLocation and region",
     "each result has exactly one physicalLocation with an artifactLocation.uri and a "
     "region.startLine (without a line the alert has no place in the file view)", g_display,
     m_del(lambda d: next(physical(first_result(d)))["region"], "startLine")),
    ("github-one-location", "GitHub: SARIF support, result object",
     "only the first location is displayed: ggufsafe writes exactly one", g_display,
     m_two_locations),
    ("github-relative-uri", "GitHub: SARIF support, artifactLocation",
     "artifact URIs are relative to the repository root through a uriBaseId, so that the "
     "alert maps to a file of the checkout", g_relative, m_absolute),
    ("github-fingerprints", "GitHub: preventing duplicate alerts using fingerprints",
     "every result has partialFingerprints, so that alerts match across runs", g_fingerprints,
     m_del(first_result, "partialFingerprints")),
    ("github-rule-id", "GitHub: SARIF support, result object",
     "every result has a ruleId (the alert's identity across analyses)", g_rule_id,
     m_del(first_result, "ruleId")),
    ("github-rule-texts", "GitHub: SARIF support, reportingDescriptor",
     "every rule has shortDescription, fullDescription and help text (shown on the alert)",
     g_rule_texts, m_del(lambda d: driver(d)["rules"][0], "fullDescription")),
]


def check(doc):
    """{rule id: [complaints]} for every rule that does not hold."""
    broken = {}
    for rid, _source, _text, fn, _mutate in RULES:
        try:
            complaints = fn(doc)
        except (AttributeError, TypeError, KeyError, IndexError, StopIteration) as e:
            complaints = [f"malformed ({type(e).__name__}: {e})"]
        if complaints:
            broken[rid] = complaints
    return broken


def main(argv):
    if len(argv) == 2 and argv[1] == "--list":
        for rid, source, text, _fn, _m in RULES:
            print(f"{rid}\t{source}\t{text}")
        return 0
    self_test = len(argv) == 3 and argv[1] == "--self-test"
    if len(argv) != 2 and not self_test:
        print(__doc__, file=sys.stderr)
        return 1
    with open(argv[-1], encoding="utf-8") as f:
        good = json.load(f)
    broken = check(good)
    for rid, complaints in broken.items():
        for c in complaints[:5]:
            print(f"{argv[-1]}: {rid}: {c}", file=sys.stderr)
    if not self_test or broken:
        return 1 if broken else 0
    ok = True
    for rid, _source, text, _fn, mutate in RULES:
        bad = copy.deepcopy(good)
        try:
            mutate(bad)
        except (KeyError, IndexError, StopIteration, TypeError) as e:
            print(f"self-test {rid}: the good file has nothing to mutate ({e!r})", file=sys.stderr)
            ok = False
            continue
        if rid not in check(bad):
            print(f"self-test {rid}: a copy breaking '{text}' was not rejected", file=sys.stderr)
            ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
