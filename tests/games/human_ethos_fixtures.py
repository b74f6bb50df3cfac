"""Enemy cards shared by the Human Ethos rule and property tests (stats chosen to cover every
case: ranged, melee, tough, and a turret that stays put)."""

from companion.games.human_ethos.enemies import EnemyType

NANO = EnemyType(name="Nanobots", threat=1, range=1, health=1, move=1)
HOST = EnemyType(name="Hosts", threat=2, range=0, health=2, move=2)
RHINO = EnemyType(name="Rhinos", threat=3, range=2, health=3, move=1)
TURRET = EnemyType(name="Turrets", threat=2, range=3, health=1, move=2, move_rule="stays")
TYPES = [NANO, HOST, RHINO, TURRET]
