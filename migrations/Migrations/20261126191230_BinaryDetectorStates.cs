using Microsoft.EntityFrameworkCore.Migrations;

#nullable disable

namespace PerfService.Migrations.Migrations
{
    /// <inheritdoc />
    /// <summary>
    /// Detector states move from JSON (jsonb) to <c>OnlineDetectorStateCodec</c>'s binary layout (bytea): the JSON
    /// round trip cost more CPU per analysed point than the detector itself. Every stored state is converted in SQL, so
    /// no series loses its history or replays; the rollback converts back.
    /// </summary>
    public partial class BinaryDetectorStates : Migration
    {
        /// <summary>JSON state (as System.Text.Json wrote it: property names as declared, enums as numbers) → codec bytes;
        /// the empty object of a series not yet fed → empty bytes.</summary>
        public const string ToBinaryFunction = """
            CREATE FUNCTION pg_temp.detector_state_bytes(s jsonb) RETURNS bytea LANGUAGE sql IMMUTABLE AS $$
            SELECT CASE WHEN NOT (s ? 'Count') THEN ''::bytea ELSE
                '\x01'::bytea || int4send((s->>'Count')::int) || int4send(coalesce((s->>'SettledBefore')::int, 0))
                || int4send(coalesce(jsonb_array_length(s->'Recent'), 0))
                || coalesce((SELECT string_agg(float8send(v::text::float8), ''::bytea ORDER BY i)
                             FROM jsonb_array_elements(s->'Recent') WITH ORDINALITY AS e(v, i)), ''::bytea)
                || int4send(coalesce(jsonb_array_length(s->'Tracks'), 0))
                || coalesce((SELECT string_agg(
                        int4send((t->>'Index')::int) || set_byte('\x00'::bytea, 0, (t->>'Direction')::int)
                        || int4send((t->>'Hits')::int) || int4send((t->>'Misses')::int)
                        || CASE WHEN jsonb_typeof(t->'Alert') = 'object' THEN '\x01'::bytea
                               || int4send((t->'Alert'->>'Index')::int) || set_byte('\x00'::bytea, 0, (t->'Alert'->>'Direction')::int)
                               || float8send((t->'Alert'->>'Magnitude')::float8) || float8send((t->'Alert'->>'LevelBefore')::float8)
                               || float8send((t->'Alert'->>'LevelAfter')::float8)
                               || int4send((t->'Alert'->>'DetectedAt')::int) || int4send(coalesce((t->'Alert'->>'WithdrawnAt')::int, -1))
                           ELSE '\x00'::bytea END, ''::bytea ORDER BY i)
                             FROM jsonb_array_elements(s->'Tracks') WITH ORDINALITY AS e(t, i)), ''::bytea)
            END $$;
            """;

        /// <summary>Codec bytes → the JSON the code before this migration reads. Doubles are rebuilt from their IEEE
        /// bits (sign, exponent, mantissa) exactly: every step is a multiplication by a power of two.</summary>
        public const string ToJsonFunctions = """
            CREATE FUNCTION pg_temp.i4(b bytea, at int) RETURNS int LANGUAGE sql IMMUTABLE AS $$
            SELECT ('x' || encode(substr(b, at + 1, 4), 'hex'))::bit(32)::int $$;
            CREATE FUNCTION pg_temp.f8(b bytea, at int) RETURNS float8 LANGUAGE sql IMMUTABLE AS $$
            SELECT CASE WHEN bits < 0 THEN -1.0::float8 ELSE 1.0::float8 END * CASE
                       WHEN (bits >> 52) & 2047 = 0 THEN (bits & 4503599627370495)::float8 * 2::float8 ^ (-1074)
                       ELSE (1 + (bits & 4503599627370495)::float8 / 4503599627370496::float8) * 2::float8 ^ (((bits >> 52) & 2047)::int - 1023) END
            FROM (SELECT ('x' || encode(substr(b, at + 1, 8), 'hex'))::bit(64)::bigint AS bits) AS x $$;
            CREATE FUNCTION pg_temp.detector_state_json(b bytea) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
            WITH RECURSIVE head AS (SELECT pg_temp.i4(b, 9) AS n),
            tracks(k, at, t) AS (
                SELECT 0, 13 + 8 * n + 4, NULL::jsonb FROM head
                UNION ALL
                SELECT k + 1, at + 14 + CASE WHEN get_byte(b, at + 13) = 1 THEN 37 ELSE 0 END,
                    jsonb_build_object('Index', pg_temp.i4(b, at), 'Direction', get_byte(b, at + 4), 'Hits', pg_temp.i4(b, at + 5),
                        'Misses', pg_temp.i4(b, at + 9), 'Alert', CASE WHEN get_byte(b, at + 13) = 1 THEN jsonb_build_object(
                            'Index', pg_temp.i4(b, at + 14), 'Direction', get_byte(b, at + 18), 'Magnitude', pg_temp.f8(b, at + 19),
                            'LevelBefore', pg_temp.f8(b, at + 27), 'LevelAfter', pg_temp.f8(b, at + 35), 'DetectedAt', pg_temp.i4(b, at + 43),
                            'WithdrawnAt', nullif(pg_temp.i4(b, at + 47), -1)) END)
                FROM tracks, head WHERE k < pg_temp.i4(b, 13 + 8 * head.n))
            SELECT CASE WHEN length(b) = 0 THEN '{}'::jsonb ELSE jsonb_build_object(
                'Count', pg_temp.i4(b, 1), 'SettledBefore', pg_temp.i4(b, 5),
                'Recent', (SELECT coalesce(jsonb_agg(to_jsonb(pg_temp.f8(b, 13 + 8 * i)) ORDER BY i), '[]') FROM head, generate_series(0, n - 1) AS i),
                'Tracks', coalesce((SELECT jsonb_agg(t ORDER BY k) FROM tracks WHERE k > 0), '[]')) END $$;
            """;

        /// <inheritdoc />
        protected override void Up(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.Sql(ToBinaryFunction);
            migrationBuilder.Sql("ALTER TABLE series_states ALTER COLUMN state TYPE bytea USING pg_temp.detector_state_bytes(state);");
            migrationBuilder.Sql("DROP FUNCTION pg_temp.detector_state_bytes(jsonb);");
        }

        /// <inheritdoc />
        protected override void Down(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.Sql(ToJsonFunctions);
            migrationBuilder.Sql("ALTER TABLE series_states ALTER COLUMN state TYPE jsonb USING pg_temp.detector_state_json(state);");
            migrationBuilder.Sql("DROP FUNCTION pg_temp.detector_state_json(bytea); DROP FUNCTION pg_temp.f8(bytea, int); DROP FUNCTION pg_temp.i4(bytea, int);");
        }
    }
}
