"""The Parquet contract: metadata written and read back, and what a reader accepts (compatible types) or refuses
(another schema version, a missing or mistyped column), in one line naming the file."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from paranmt.core.pair_schema import (
    DEADLETTER_SCHEMA,
    EN_TOKENS,
    ID,
    MT_TOKENS,
    PAIRS_SCHEMA,
    REASON,
    REJECTED_SCHEMA,
    SCHEMA_VERSION,
    TRANSLATION_SCORE,
    Reason,
    SchemaMismatch,
    check_schema,
    empty_table,
    read_metadata,
    with_metadata,
)


def test_metadata_round_trips_through_a_parquet_file(tmp_path):
    schema = with_metadata(PAIRS_SCHEMA, nmt_model_id="small-cs-en", config={"beam": 12, "path": tmp_path})
    pq.write_table(empty_table(schema), tmp_path / "pairs.parquet")
    metadata = read_metadata(pq.read_schema(tmp_path / "pairs.parquet"))
    # the version stays a string; other values are JSON (a path as its str())
    assert metadata == {"schema_version": SCHEMA_VERSION, "nmt_model_id": "small-cs-en",
                        "config": {"beam": 12, "path": str(tmp_path)}}


def test_other_metadata_is_kept_and_not_read():
    schema = PAIRS_SCHEMA.with_metadata({b"pandas": b"{}", b"paranmt.scorer_id": b'"s1"'})
    tagged = with_metadata(schema, fold=3)
    assert tagged.metadata[b"pandas"] == b"{}"
    assert read_metadata(tagged) == {"schema_version": SCHEMA_VERSION, "scorer_id": "s1", "fold": 3}
    assert read_metadata(pa.schema([])) == {}


def test_the_writers_own_schemas_pass_their_check():
    check_schema(PAIRS_SCHEMA)
    check_schema(with_metadata(PAIRS_SCHEMA), required=tuple(PAIRS_SCHEMA.names))
    check_schema(REJECTED_SCHEMA, required=(ID, REASON))
    check_schema(DEADLETTER_SCHEMA, required=(ID, REASON))
    assert empty_table().schema == PAIRS_SCHEMA and empty_table().num_rows == 0


def test_compatible_types_are_accepted():
    """What other writers give: large lists and strings, float64 scores, plain strings for a dictionary column."""
    schema = pa.schema([(ID, pa.large_string()), (EN_TOKENS, pa.large_list(pa.large_string())),
                        (MT_TOKENS, pa.list_(pa.string())), (TRANSLATION_SCORE, pa.float64()),
                        (REASON, pa.string()), ("my_score", pa.int32())])
    check_schema(schema, required=(ID, EN_TOKENS, MT_TOKENS, TRANSLATION_SCORE, REASON, "my_score"))


@pytest.mark.parametrize(("schema", "message"), [
    (pa.schema([(ID, pa.string()), (EN_TOKENS, pa.list_(pa.string()))]),
     "data/part-0.parquet: missing columns ['mt_tokens']; found ['id', 'en_tokens']"),
    (pa.schema([(ID, pa.string()), (EN_TOKENS, pa.string()), (MT_TOKENS, pa.list_(pa.string()))]),
     "data/part-0.parquet: column en_tokens has type string, expected list<item: string>"),
    (pa.schema([(ID, pa.int64()), (EN_TOKENS, pa.list_(pa.string())), (MT_TOKENS, pa.list_(pa.string()))]),
     "column id has type int64, expected string"),
    (pa.schema([(ID, pa.string()), (EN_TOKENS, pa.list_(pa.int32())), (MT_TOKENS, pa.list_(pa.string()))]),
     "column en_tokens has type list<item: int32>"),
    (PAIRS_SCHEMA.with_metadata({b"paranmt.schema_version": b"0"}),
     f"data/part-0.parquet: schema_version 0 but this code reads version {SCHEMA_VERSION}"),
])
def test_a_mismatch_is_one_line_naming_the_file(schema, message):
    with pytest.raises(SchemaMismatch) as caught:
        check_schema(schema, source="data/part-0.parquet")
    assert message in str(caught.value) and "\n" not in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_without_a_source_the_message_starts_with_the_problem():
    with pytest.raises(SchemaMismatch, match=r"^missing columns \['id'\]"):
        check_schema(pa.schema([]), required=(ID,))


def test_an_int8_dictionary_index_holds_every_reason_code():
    for schema in (PAIRS_SCHEMA, REJECTED_SCHEMA, DEADLETTER_SCHEMA):
        assert schema.field(REASON).type == pa.dictionary(pa.int8(), pa.string())
    reasons = pa.array([r.value for r in Reason]).dictionary_encode()
    assert reasons.cast(pa.dictionary(pa.int8(), pa.string())).to_pylist() == [r.value for r in Reason]
