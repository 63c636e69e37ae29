"""Requests in other languages, and words that play another role (issue 21, round 4).

The sentences were written for these tests. Other languages' everyday words (with,
without, user, disk, remove, and, greetings) are read through the tables in
``stores/data/languages.yaml`` when a message uses a language; none of their words, and
no word that plays another role in its sentence (a group, a named repository, what a
machine has), ever becomes a package.
"""

from __future__ import annotations

from typing import Any

import pytest

from oic_ai.tools.edit_plan import EditPlan
from oic_ai.tools.planner import plan_request
from oic_ai.tools.planner.languages import detect, foreign_words, translate
from oic_ai.tools.planner.text import RequestText
from tests.conftest import OUR_TEMPLATES
from tests.tools.planner.helpers import added, assert_user, plan_on, removed, users

DEBIAN = "debian13-x86_64-minimal-raw.yml"


def plan(request: str, template: str = DEBIAN) -> EditPlan:
    return plan_on(template, request)


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("quiero un usuario con sudo y sin docker", "es"),
        ("preciso de um usuário sem sudo, obrigado", "pt"),
        ("bitte einen Benutzer ohne sudo und mit zsh", "de"),
        ("ajoute un utilisateur avec sudo, merci", "fr"),
        ("potrzebuję użytkownika bez sudo, dzięki", "pl"),
        ("lütfen bir kullanıcı ekle, sudo yok", "tr"),
    ],
)
def test_a_message_in_another_language_is_recognised(text: str, language: str) -> None:
    assert detect(text)[0] == language


@pytest.mark.parametrize(
    "text",
    [
        "add con-tools and die-hard to the image",  # words shared with English
        "the e-mail relay runs on example.com/de/no",  # fragments of names and paths
        "I will add sin and con later, no rush",
    ],
)
def test_english_with_a_few_foreign_looking_words_stays_english(text: str) -> None:
    assert detect(text) == []
    assert translate(text) == text


def test_names_paths_and_options_are_never_translated() -> None:
    read = translate("usuario con shell /usr/bin/con, opción con=1 y paquete con-extra")
    assert "/usr/bin/con" in read and "con=1" in read and "con-extra" in read
    assert read.startswith("user with shell")


@pytest.mark.parametrize(
    ("request_text", "name", "fields"),
    [
        ("un usuario llamado caja, sin sudo, con shell /bin/bash", "caja", {"shell": "/bin/bash"}),
        ("cria o usuário vendas com sudo, no grupo video", "vendas", {"sudo": True}),
        ("noch einen Benutzer namens lager mit sudo bitte", "lager", {"sudo": True}),
        ("kullanıcı 'kasa' ekle, gruplar lp ve audio", "kasa", {"groups": ["lp", "audio"]}),
        ("the user called tester, without sudo", "tester", {}),
    ],
)
def test_a_user_asked_for_in_another_language(
    request_text: str, name: str, fields: dict[str, Any]
) -> None:
    result = plan(request_text)
    assert_user(result, name, fields, request_text)
    assert not added(result), added(result)


@pytest.mark.parametrize(
    ("request_text", "adds", "removes"),
    [
        ("añade htop y tmux, por favor", ["htop", "tmux"], []),
        ("tira o openssh-server e coloca htop e tmux", ["htop", "tmux"], ["openssh-server"]),
        ("bitte füge htop und tmux hinzu, danke", ["htop", "tmux"], []),
        ("dodaj htop i tmux, dzięki", ["htop", "tmux"], []),
    ],
)
def test_packages_asked_for_in_another_language(
    request_text: str, adds: list[str], removes: list[str]
) -> None:
    result = plan(request_text)
    assert sorted(added(result)) == adds, (added(result), result.not_applied)
    assert removed(result) == removes


@pytest.mark.parametrize(
    ("request_text", "allowed"),
    [
        # function words of another language, and a word's tail cut at a letter like "ç"
        ("crie o usuário caixa, com sudo, e no grupo audio também", set()),
        ("tmux gereksiz, çıkar", set()),
        ("potrzebuję htop dla sklepu w mieście", {"htop"}),
        # a group, a named repository, a shorthand, what the machine has
        ("add a user pos in the lpadmin group, also with dialout", set()),
        ("add our zorbix mirror: url https://example.com/z key https://example.com/k", set()),
        ("htop and tmux, plz", {"htop", "tmux"}),
        ("the NUC has a 32G nvme but leave wiggleroom", set()),
        # a name said with "the user called" is the user's, not sudo's or a package's
        ("the user called tester, without sudo", set()),
    ],
)
def test_words_that_play_another_role_never_become_packages(
    request_text: str, allowed: set[str]
) -> None:
    for mode in ("create", "refine"):
        text = (OUR_TEMPLATES / DEBIAN).read_text(encoding="utf-8")
        result = plan_request(request_text, text, mode=mode)
        assert set(added(result)) <= allowed, (mode, added(result), result.not_applied)


def test_every_word_of_the_tables_is_never_a_package() -> None:
    words = foreign_words()
    assert {"fica", "und", "ohne", "usuario", "kullanıcı", "bitte"} <= words
    # words English shares are left to the package rule's other checks
    assert "con" not in words and "no" not in words


def test_a_word_of_any_alphabet_is_one_token() -> None:
    text = RequestText("usbutils gereksiz, çıkar; usuário ana")
    words = [t.text for t in text.tokens() if t.kind == "word"] if hasattr(text, "tokens") else []
    if not words:
        from oic_ai.tools.planner.text import tokenize

        words = [t.text for t in tokenize(text.work) if t.kind == "word"]
    assert "çıkar" in words or "remove" in words
    assert "kar" not in words and "rio" not in words


def test_every_entry_of_the_tables_is_text() -> None:
    # YAML reads a bare no, on or y as a boolean: every key and value must stay a word
    import yaml

    from oic_ai.tools.planner.languages import _DATA

    data = yaml.safe_load(_DATA.read_text(encoding="utf-8"))
    tables = [entry["words"] for entry in data["languages"].values()] + [data["anywhere"]]
    for table in tables:
        assert all(isinstance(k, str) and isinstance(v, str) for k, v in table.items())
    assert all(isinstance(w, str) for w in data["english"])


@pytest.mark.parametrize(
    ("request_text", "name", "fields"),
    [
        ("user name kim, sudo yes, groups video and dialout, please", "kim", {"sudo": True}),
        ("user name: joe, with sudo", "joe", {"sudo": True}),
    ],
)
def test_a_user_given_by_user_name(request_text: str, name: str, fields: dict[str, Any]) -> None:
    result = plan(request_text)
    found = users(result)
    assert list(found) == [name], (found, result.not_applied)
    for key, value in fields.items():
        assert found[name].get(key) == value
    assert "please" not in found[name].get("groups", [])
    assert not result.not_applied


def test_the_user_name_said_of_is_no_user() -> None:
    assert not users(plan("the user name is wrong"))


@pytest.mark.parametrize(
    "request_text",
    [
        "añade htop. la tienda nueva abre en marzo",
        "coloca htop e tmux, a loja nova abre em março, obrigado",
        "füge htop hinzu. die Halle wird erst nächste Woche fertig",
    ],
)
def test_a_remark_in_another_language_is_context_not_a_miss(request_text: str) -> None:
    result = plan(request_text)
    assert "htop" in added(result), result.not_applied
    assert not result.not_applied, result.not_applied
    assert any(c.outcome == "context" for c in result.clauses)


def test_an_english_clause_in_a_message_in_another_language_is_still_reported() -> None:
    result = plan("añade htop por favor. also make the fans spin slower at night")
    assert any("fans spin slower" in line for line in result.not_applied), result.not_applied


@pytest.mark.parametrize(
    "request_text",
    ["please install the q package", "install the package w and htop", "install ubuntu and htop"],
)
def test_single_letters_and_target_names_are_never_packages(request_text: str) -> None:
    for mode in ("create", "refine"):
        text = (OUR_TEMPLATES / DEBIAN).read_text(encoding="utf-8")
        result = plan_request(request_text, text, mode=mode)
        assert set(added(result)) <= {"htop"}, (mode, added(result))
