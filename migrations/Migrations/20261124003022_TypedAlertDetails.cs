using Microsoft.EntityFrameworkCore.Migrations;

#nullable disable

namespace PerfService.Migrations.Migrations
{
    /// <inheritdoc />
    /// <summary>
    /// Alert details become a typed document (<c>AlertDetails</c>): the three shapes written before, with their mixed
    /// casing, are rewritten into its parts. The column stays jsonb; only its content changes.
    /// </summary>
    public partial class TypedAlertDetails : Migration
    {
        /// <summary>Old change-point objects (Index, …, direction, bisect), regression objects (jobId, BaseMedian, …, p) and
        /// target arrays become {ChangePoint, Regression, TargetMisses, Bisect}. Rows already in the new shape are left alone.</summary>
        public const string ToTyped = """
            UPDATE alerts SET details = jsonb_build_object('TargetMisses', '[]'::jsonb)
                || CASE WHEN details ? 'Index' THEN jsonb_build_object('ChangePoint', jsonb_build_object(
                       'Index', details->'Index', 'Magnitude', details->'Magnitude', 'LevelBefore', details->'LevelBefore',
                       'LevelAfter', details->'LevelAfter', 'DetectedAt', details->'DetectedAt', 'Direction', details->'direction')) ELSE '{}' END
                || CASE WHEN details ? 'jobId' THEN jsonb_build_object('Regression', jsonb_build_object(
                       'JobId', details->'jobId', 'BaseMedian', details->'BaseMedian', 'HeadMedian', details->'HeadMedian',
                       'Change', details->'change', 'P', details->'p')) ELSE '{}' END
                || CASE WHEN jsonb_typeof(details) = 'array' THEN jsonb_build_object('TargetMisses', details) ELSE '{}' END
                || CASE WHEN jsonb_typeof(details->'bisect') = 'object' THEN jsonb_build_object('Bisect', details->'bisect') ELSE '{}' END
            WHERE details IS NOT NULL AND NOT (jsonb_typeof(details) = 'object' AND details ? 'TargetMisses');
            """;

        /// <summary>Back to the old shapes, for a rollback to the code before this migration.</summary>
        public const string ToUntyped = """
            UPDATE alerts SET details = CASE
                WHEN details->'ChangePoint' IS NOT NULL AND jsonb_typeof(details->'ChangePoint') = 'object' THEN
                    jsonb_build_object('Index', details->'ChangePoint'->'Index', 'Magnitude', details->'ChangePoint'->'Magnitude',
                        'LevelBefore', details->'ChangePoint'->'LevelBefore', 'LevelAfter', details->'ChangePoint'->'LevelAfter',
                        'DetectedAt', details->'ChangePoint'->'DetectedAt', 'direction', details->'ChangePoint'->'Direction')
                    || CASE WHEN jsonb_typeof(details->'Bisect') = 'object' THEN jsonb_build_object('bisect', details->'Bisect') ELSE '{}' END
                WHEN jsonb_typeof(details->'Regression') = 'object' THEN
                    jsonb_build_object('jobId', details->'Regression'->'JobId', 'BaseMedian', details->'Regression'->'BaseMedian',
                        'HeadMedian', details->'Regression'->'HeadMedian', 'change', details->'Regression'->'Change', 'p', details->'Regression'->'P')
                WHEN jsonb_array_length(coalesce(details->'TargetMisses', '[]')) > 0 THEN details->'TargetMisses'
                ELSE '{}' END
            WHERE jsonb_typeof(details) = 'object' AND details ? 'TargetMisses';
            """;

        /// <inheritdoc />
        protected override void Up(MigrationBuilder migrationBuilder) => migrationBuilder.Sql(ToTyped);

        /// <inheritdoc />
        protected override void Down(MigrationBuilder migrationBuilder) => migrationBuilder.Sql(ToUntyped);
    }
}
