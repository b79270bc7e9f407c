"""The tables: battles (one running per channel), their append-only event log, each battle's co-GMs,
guild settings."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

#: battle status values
RUNNING = "running"
ENDED = "ended"

#: event row status values: live, taken back by /gm undo, or dropped by a new action after an undo
LIVE = "live"
UNDONE = "undone"
DISCARDED = "discarded"

#: event row kinds: an action changes the state; a note (undo, redo) only records who did what
ACTION = "action"
NOTE = "note"


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class Battle(Base):
    __tablename__ = "battles"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    guild_id: Mapped[str] = mapped_column(String(64))
    channel_id: Mapped[str] = mapped_column(String(64))
    ruleset: Mapped[str] = mapped_column(String(32))
    status: Mapped[str] = mapped_column(String(16), default=RUNNING)
    #: bumped by every write; a write names the version it read (optimistic check)
    version: Mapped[int] = mapped_column(Integer, default=0)
    #: the rule set's export document of the state as of ``state_seq`` (JSON text): the current state
    #: is it with the patches (``BattleEvent.delta``) of the live actions after ``state_seq`` applied.
    #: Rewritten with each snapshot, undo and redo (revision 0006; before it, with every write)
    state: Mapped[str] = mapped_column(Text)
    #: the log seq (= version) ``state`` is of
    state_seq: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
    #: bytes of patches logged since the last snapshot (a snapshot is taken when they outweigh one)
    pending_bytes: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    started_by: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    #: the Discord message that shows this battle's live status (null: none posted yet, or a battle
    #: from before revision 0002, whose message is looked for in the channel's history)
    status_message_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    #: the battle version that message last showed (null: not known, a message from before revision
    #: 0005): a running battle past it gets its message refreshed when a front-end starts
    status_message_version: Mapped[int | None] = mapped_column(Integer, nullable=True)

    __table_args__ = (
        Index("ix_battles_guild_channel", "guild_id", "channel_id"),
        # one running battle per channel; ended ones are kept
        Index(
            "uq_battles_running_channel",
            "guild_id",
            "channel_id",
            unique=True,
            sqlite_where=text("status = 'running'"),
            postgresql_where=text("status = 'running'"),
        ),
    )


class BattleEvent(Base):
    """One stored command: who, what was typed, what happened (with dice), and how the state changed.

    An action's ``delta`` is the patch from the state before it to the state after it
    (``bot.storage.docpatch``: old and new values both, so undo takes it back and redo puts it back);
    ``snapshot`` is the whole state after it, on the first action and then whenever the patches since
    the last snapshot outweigh one (revision 0006: before it every row held the whole state).
    """

    __tablename__ = "battle_events"

    id: Mapped[int] = mapped_column(
        BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True
    )
    battle_id: Mapped[int] = mapped_column(ForeignKey("battles.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16), default=ACTION)
    status: Mapped[str] = mapped_column(String(16), default=LIVE)
    actor: Mapped[str] = mapped_column(String(64))
    command_text: Mapped[str] = mapped_column(Text)
    #: the command as stored by its rule set (JSON text)
    command: Mapped[str] = mapped_column(Text)
    #: the events with their dice (JSON text: a list of ``Event.to_json()``)
    events: Mapped[str] = mapped_column(Text)
    #: the patch this action made to the state (JSON text); null for notes and the first action
    delta: Mapped[str | None] = mapped_column(Text, nullable=True)
    #: the whole state after this action (JSON text), on some actions only; null elsewhere
    snapshot: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (
        UniqueConstraint("battle_id", "seq", name="uq_battle_events_battle_seq"),
        # the live actions newest first (undo, summaries), the undone ones oldest first (redo)
        Index("ix_battle_events_battle_status_seq", "battle_id", "status", "seq"),
    )


class BattleGM(Base):
    """A co-GM of one battle (``/gm add``): stored with the battle, gone with it (revision 0003)."""

    __tablename__ = "battle_gms"

    battle_id: Mapped[int] = mapped_column(ForeignKey("battles.id", ondelete="CASCADE"))
    user_id: Mapped[str] = mapped_column(String(64))
    added_by: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (PrimaryKeyConstraint("battle_id", "user_id", name="pk_battle_gms"),)


class GuildSettings(Base):
    """A server's settings: its language and its GM role (``/gm role``). Until revision 0003 it also
    held a server-wide co-GM list, which that revision retired (co-GMs are per battle now)."""

    __tablename__ = "guild_settings"

    guild_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    language: Mapped[str] = mapped_column(String(8), default="ja")
    gm_role_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ChannelSettings(Base):
    """A channel's settings: whether its chat messages that begin with a dice command are rolled
    (``/settings chat_dice:``)."""

    __tablename__ = "channel_settings"

    guild_id: Mapped[str] = mapped_column(String(64))
    channel_id: Mapped[str] = mapped_column(String(64))
    chat_dice: Mapped[bool] = mapped_column(Boolean, default=False)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (PrimaryKeyConstraint("guild_id", "channel_id", name="pk_channel_settings"),)


class SecretRoll(Base):
    """A secret roll kept with its channel for its GMs and a later reveal (``/roll secrets``,
    ``/roll reveal``): its number in the channel, its roller, the result text, when."""

    __tablename__ = "secret_rolls"

    guild_id: Mapped[str] = mapped_column(String(64))
    channel_id: Mapped[str] = mapped_column(String(64))
    number: Mapped[int] = mapped_column(Integer)
    roller: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (
        PrimaryKeyConstraint("guild_id", "channel_id", "number", name="pk_secret_rolls"),
        Index("ix_secret_rolls_channel_created", "guild_id", "channel_id", "created_at"),
    )


class UserSheet(Base):
    """A character sheet a user registered on a server for ``/palette`` (``/palette register``): the
    sheet as the reader keeps it (``engine.sheets.model.sheet_to_json``), its own chat palette if it has
    one, and where it came from. One a name: registering the name again replaces it."""

    __tablename__ = "user_sheets"

    guild_id: Mapped[str] = mapped_column(String(64))
    user_id: Mapped[str] = mapped_column(String(64))
    #: the sheet's character name, folded (``engine.common.fold``): what a name is looked up by
    key: Mapped[str] = mapped_column(String(128))
    name: Mapped[str] = mapped_column(String(128))
    sheet: Mapped[str] = mapped_column(Text)
    palette: Mapped[str | None] = mapped_column(Text, nullable=True)
    source: Mapped[str] = mapped_column(Text, default="")
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (PrimaryKeyConstraint("guild_id", "user_id", "key", name="pk_user_sheets"),)


class ShardOwner(Base):
    """A process that takes part in sharing the shards (``TORIDE_SHARDS=auto``,
    ``bot.storage.leases``), while its row is renewed."""

    __tablename__ = "shard_owners"

    owner: Mapped[str] = mapped_column(String(64))
    host: Mapped[str] = mapped_column(String(255))
    pid: Mapped[int] = mapped_column(Integer)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (PrimaryKeyConstraint("owner", name="pk_shard_owners"),)


class ShardLease(Base):
    """The process running a shard, until ``expires_at`` unless it renews the lease
    (``bot.storage.leases``)."""

    __tablename__ = "shard_leases"

    shard_id: Mapped[int] = mapped_column(Integer, autoincrement=False)
    shard_count: Mapped[int] = mapped_column(Integer)
    owner: Mapped[str] = mapped_column(String(64))
    host: Mapped[str] = mapped_column(String(255))
    pid: Mapped[int] = mapped_column(Integer)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (PrimaryKeyConstraint("shard_id", name="pk_shard_leases"),)
