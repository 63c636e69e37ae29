"""Repository fields wherever people put them: listed after the URL with commas, in a
later sentence for the repository already there, and "add it" after a description; and in
more of the forms people write them: "comp", a slash between suite and component, a
``file://`` key, quoted components, a repository trusted without a key, and a field changed
for a listed repository with filler words ("the X suite there is ...")."""

from __future__ import annotations

import pytest

from oic_ai.tools.references import target_clause_spans
from oic_ai.tools.retrieval.target_mentions import detect_target_spans
from tests.tools.planner.helpers import one_repository_op, plan_on, repository_ops

DEBIAN = "debian13-x86_64-minimal-raw.yml"
LISTED = "https://apt.corp.example.com/debian"


LISTED_REPOSITORY: dict[str, object] = {
    "codename": "trixie",
    "url": LISTED,
    "component": "main",
    "pkey": "https://apt.corp.example.com/old.gpg",
    "priority": 100,
}

ACME = "https://pkgs.acme.example/apt"
ACME_REPOSITORY: dict[str, object] = {
    "codename": "bookworm",
    "url": ACME,
    "component": "main",
    "pkey": f"{ACME}/k.asc",
}


def _ops(said: str, with_repository: bool = False) -> tuple[list[dict[str, object]], list[str]]:
    return repository_ops(said, DEBIAN, LISTED_REPOSITORY if with_repository else None)


@pytest.mark.parametrize(
    ("said", "codename", "component"),
    [
        (
            "our mirror: https://m.example.org/debian, trixie, main contrib",
            "trixie",
            "main contrib",
        ),
        ("use the ppa https://ppa.example.net/x/ubuntu, jammy, main", "jammy", "main"),
        (
            "add the repo https://r.example.org/apt, stable, main, key https://r.example.org/k",
            "stable",
            "main",
        ),
    ],
)
def test_fields_listed_after_the_url_with_commas(said: str, codename: str, component: str) -> None:
    ops, not_applied = _ops(said)
    added = [op for op in ops if op["op"] == "add_repository"]
    assert len(added) == 1 and not_applied == []
    assert (added[0]["codename"], added[0]["component"]) == (codename, component)


def test_a_word_after_a_comma_is_a_suite_only_when_it_is_one() -> None:
    ops, _ = _ops("add the repo https://r.example.org/apt, vainfo")
    added = [op for op in ops if op["op"] == "add_repository"]
    assert added and added[0].get("codename") is None


def test_a_release_named_as_a_repository_field_is_no_target() -> None:
    for said in ("codename jammy", "suite: bookworm", "https://r.example.org/apt bullseye main"):
        assert all(m.source for m in detect_target_spans(said) if m.kind == "dist")
    assert not detect_target_spans("make it ubuntu noble")[0].source


@pytest.mark.parametrize(
    ("said", "field", "value"),
    [
        ("priority 700 (not 100)", "priority", 700),
        ("component contrib please", "component", "contrib"),
        (
            "the signing key is stale. use https://apt.corp.example.com/new.asc",
            "pkey",
            "https://apt.corp.example.com/new.asc",
        ),
    ],
)
def test_a_field_alone_changes_the_listed_repository(said: str, field: str, value: object) -> None:
    ops, not_applied = _ops(said, with_repository=True)
    assert not_applied == []
    assert ops == [
        {"op": "set", "path": f"packageRepositories[url={LISTED}].{field}", "value": value}
    ]


def test_add_it_after_a_described_repository_is_part_of_it() -> None:
    said = (
        "There is a vendor repo at https://v.example.com/deb, suite trixie, "
        "component non-free. Use it, thanks"
    )
    ops, not_applied = _ops(said)
    assert not_applied == []
    added = [op for op in ops if op["op"] == "add_repository"]
    assert added[0]["component"] == "non-free"


def test_a_field_word_in_a_sentence_about_other_things_changes_no_repository() -> None:
    ops, _ = _ops("remove unneeded components like cups", with_repository=True)
    assert not [op for op in ops if op["op"] == "set"]


def _added(said: str, with_repository: bool = False) -> dict[str, object]:
    return one_repository_op(said, DEBIAN, LISTED_REPOSITORY if with_repository else None)


@pytest.mark.parametrize(
    ("said", "fields"),
    [
        # the fields in another order than a sources.list line, each with its word
        (
            "key https://k.example.org/pub.asc, component extras, and the mirror "
            "https://m.example.org/deb with suite forky",
            {"codename": "forky", "component": "extras", "pkey": "https://k.example.org/pub.asc"},
        ),
        # a thing "called" something else is no repository name: the suite is said
        (
            "we ship a tool called zorbo-agent from https://z.example.org/apt, suite lts, "
            "component main",
            {"codename": "lts", "component": "main"},
        ),
        # a remark after the component is no second component
        (
            "our apt repo https://a.example.org/x codename trixie component main, we keep "
            "the rest in git",
            {"codename": "trixie", "component": "main"},
        ),
        # several components, some of them English words too
        (
            "mirror https://a.example.org/y, codename trixie, components main contrib non-free",
            {"component": "main contrib non-free"},
        ),
        # suite and component in parentheses after the URL
        (
            "use the vendor's repo https://v.example.org/deb (forky, extras) with key "
            "https://v.example.org/k.asc",
            {"codename": "forky", "component": "extras", "pkey": "https://v.example.org/k.asc"},
        ),
        # "company" starts like "comp" (component) but is a word of its own
        (
            "set up the company mirror https://c.example.org/deb , codename forky, "
            "component extras",
            {"codename": "forky", "component": "extras"},
        ),
        # quoted field values
        (
            "the vendor repo is https://q.example.org/apt, suite 'lts', component \"main\", "
            "signed with https://q.example.org/k.asc",
            {"codename": "lts", "component": "main", "pkey": "https://q.example.org/k.asc"},
        ),
        # a pasted field list, one field a line, the key as "pkey"
        (
            "- url: https://p.example.org/apt\n  codename: forky\n  component: main\n"
            "  pkey: https://p.example.org/k.asc",
            {"codename": "forky", "component": "main", "pkey": "https://p.example.org/k.asc"},
        ),
        # "comp" for the component
        (
            "vendor repo https://r.vendor.example/deb suite edge2, comp main, key "
            "https://r.vendor.example/k.asc",
            {"codename": "edge2", "component": "main", "pkey": "https://r.vendor.example/k.asc"},
        ),
        # a slash between suite and component, a file:// key
        (
            "our mirror: https://m.vendor.example/debian, trixie / main, keyring at "
            "file:///usr/share/keyrings/m.gpg",
            {"codename": "trixie", "component": "main", "pkey": "file:///usr/share/keyrings/m.gpg"},
        ),
        # the components quoted together
        (
            "add the repo https://q.vendor.example/apt codename trixie, components 'main "
            "contrib non-free', key https://q.vendor.example/q.gpg",
            {"codename": "trixie", "component": "main contrib non-free"},
        ),
    ],
)
def test_repository_fields_in_any_order(said: str, fields: dict[str, object]) -> None:
    one_repository_op(said, DEBIAN, wanted=fields)


def test_a_url_given_with_a_key_is_a_repository_whatever_it_is_called() -> None:
    said = "fetch btop out of ACME-EXTRAS (https://x.example.org/el/10/ , key https://x.example.org/KEY)"
    repo = _added(said)
    # the trailing slash is kept exactly as given
    assert repo["url"] == "https://x.example.org/el/10/"
    assert repo["pkey"] == "https://x.example.org/KEY"


@pytest.mark.parametrize(
    "said",
    [
        "Bitte noch unser Repo: https://r.example.de/rpms, Schlüssel unter https://r.example.de/k",
        "y el repositorio https://r.example.de/rpms con la clave https://r.example.de/k, gracias",
        "e o repositório https://r.example.de/rpms com a chave https://r.example.de/k, obrigado",
    ],
)
def test_a_signing_key_said_in_another_language(said: str) -> None:
    repo = _added(said)
    assert (repo["url"], repo.get("pkey")) == (
        "https://r.example.de/rpms",
        "https://r.example.de/k",
    )


def test_a_listed_repository_given_again_gets_the_fields_said() -> None:
    said = f"add the repo {LISTED}, codename trixie, component non-free, key https://apt.corp.example.com/old.gpg"
    ops, not_applied = _ops(said, with_repository=True)
    assert not_applied == []
    # only the field said differently is set; the repository is not listed twice
    assert ops == [
        {"op": "set", "path": f"packageRepositories[url={LISTED}].component", "value": "non-free"}
    ]


def test_the_package_a_repository_request_names_as_one_is_added() -> None:
    said = (
        "the agent ships as an rpm named zorbo-agent on https://z.example.org/rpms "
        "(key https://z.example.org/key). add the repo and install the package"
    )
    plan = plan_on(DEBIAN, said)
    packages = [n for op in plan.operations if op.op == "add_packages" for n in op.packages]
    assert packages == ["zorbo-agent"], (plan.operations, plan.not_applied)
    repos = [op for op in plan.operations if op.op == "add_repository"]
    assert len(repos) == 1 and repos[0].url == "https://z.example.org/rpms"
    assert plan.not_applied == []


# --- a repository trusted without a key ---------------------------------------------


@pytest.mark.parametrize(
    "trust",
    [
        "it is unsigned, just trust it",
        "there's no signing key, mark it as trusted",
        "[trusted=yes]",
    ],
)
def test_a_repository_trusted_without_a_key(trust: str) -> None:
    ops, not_applied = _ops(f"add repo https://t.vendor.example/apt codename trixie. {trust}")
    added = [op for op in ops if op["op"] == "add_repository"]
    assert added and added[0].get("pkey") == "[trusted=yes]", ops
    assert not_applied == [], not_applied


def test_no_key_alone_invents_no_trust_and_no_key() -> None:
    ops, not_applied = _ops("add repo https://t.vendor.example/apt codename trixie, no key")
    added = [op for op in ops if op["op"] == "add_repository"]
    assert added and "pkey" not in added[0], ops
    assert not_applied == [], not_applied


def test_a_field_of_a_listed_repository_said_with_filler_words() -> None:
    ops, not_applied = repository_ops(
        "the acme codename there is trixie instead of bookworm", DEBIAN, ACME_REPOSITORY
    )
    assert {
        "op": "set",
        "path": f"packageRepositories[url={ACME}].codename",
        "value": "trixie",
    } in ops, ops
    assert not [op for op in ops if op["op"] == "set_target"], ops
    assert not_applied == [], not_applied


def test_a_release_said_as_a_repository_field_is_no_target_of_a_retarget() -> None:
    said = "same image for debian 13; the vendor suite there is trixie, not bookworm"
    spans = target_clause_spans(said)
    assert not any(said[s:e] == "trixie" for s, e in spans), spans
