"""Saves from before the games spoke languages (#15) still replay: where today's rules keep a message
in the state, an old save holds its English sentence; the two read the same."""

from test_biosphere5_property import choose  # the property test's player: fills the Machine's forms


def test_a_save_from_before_the_games_spoke_languages_still_replays():
    """A save made before a game spoke languages holds English sentences in its states where today's
    rules keep messages (Biosphere 5's Machine keeps its decision so): it replays all the same."""
    import json

    from companion.games import get_game
    from companion.i18n import as_text
    from companion.log import replay
    from tests.contract import physical_playout

    game = get_game("biosphere5")

    def in_english(value):
        if isinstance(value, dict):
            return as_text(value).english if "msgid" in value else {k: in_english(v) for k, v in value.items()}
        return [in_english(v) for v in value] if isinstance(value, list) else value

    settings = {"opponent": "machine", "difficulty": 3, "hand_die_black_faces": 1}
    out = physical_playout(game, settings, seed=0, choose=choose, steps=30)
    assert any('"msgid"' in json.dumps(e["state"]) for e in out.entries)  # messages kept in the states
    old = [dict(e, state=in_english(e["state"])) for e in out.entries]
    assert not any('"msgid"' in json.dumps(e["state"]) for e in old)
    assert replay(game, settings, old).ok
    tampered = json.loads(json.dumps(old))
    tampered[-1]["state"]["game"]["solo"]["machine"]["level"] += 1
    assert not replay(game, settings, tampered).ok  # the comparison still compares
