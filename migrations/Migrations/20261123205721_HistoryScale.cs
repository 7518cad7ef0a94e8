using System;
using Microsoft.EntityFrameworkCore.Migrations;

#nullable disable

namespace PerfService.Migrations.Migrations
{
    /// <inheritdoc />
    public partial class HistoryScale : Migration
    {
        /// <inheritdoc />
        protected override void Up(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.DropForeignKey(
                name: "fk_results_benchmarks_benchmark_id",
                table: "results");

            migrationBuilder.DropForeignKey(
                name: "fk_results_measures_measure_id",
                table: "results");

            migrationBuilder.DropForeignKey(
                name: "fk_results_runs_run_id",
                table: "results");

            migrationBuilder.DropIndex(
                name: "ix_results_measure_id",
                table: "results");

            migrationBuilder.AddColumn<DateTimeOffset>(
                name: "samples_summarised_at",
                table: "runs",
                type: "timestamp with time zone",
                nullable: true);

            migrationBuilder.CreateIndex(
                name: "ix_runs_created_at_samples_kept",
                table: "runs",
                column: "created_at",
                filter: "samples_summarised_at IS NULL");

            migrationBuilder.Sql(SetBasedReferences);
        }

        // results' references, checked once per statement instead of once per row (see ResultConfiguration): a run's
        // COPY of 10,000 rows runs three anti-joins over its distinct ids rather than 30,000 row-level foreign-key
        // checks. Deletes cascade as before. Row-level foreign keys also lock the referenced rows against a concurrent
        // delete; that is not needed here: results are only written with their run, in the transaction that creates
        // it, and that run's own foreign keys lock its suite (whose deletion is the only way benchmarks go) and
        // project; measures are never deleted.
        //
        // The function without its CREATE: SinglePassReferenceCheck replaces it and puts it back on the way down.
        internal const string CheckReferences = """
            FUNCTION results_check_references() RETURNS trigger LANGUAGE plpgsql AS $$
            DECLARE missing bigint;
            BEGIN
                SELECT n.id INTO missing FROM (SELECT DISTINCT run_id AS id FROM new_results) n
                WHERE NOT EXISTS (SELECT 1 FROM runs x WHERE x.id = n.id) LIMIT 1;
                IF FOUND THEN
                    RAISE EXCEPTION 'results reference run %, which does not exist', missing USING ERRCODE = 'foreign_key_violation';
                END IF;
                SELECT n.id INTO missing FROM (SELECT DISTINCT benchmark_id AS id FROM new_results) n
                WHERE NOT EXISTS (SELECT 1 FROM benchmarks x WHERE x.id = n.id) LIMIT 1;
                IF FOUND THEN
                    RAISE EXCEPTION 'results reference benchmark %, which does not exist', missing USING ERRCODE = 'foreign_key_violation';
                END IF;
                SELECT n.id INTO missing FROM (SELECT DISTINCT measure_id AS id FROM new_results) n
                WHERE NOT EXISTS (SELECT 1 FROM measures x WHERE x.id = n.id) LIMIT 1;
                IF FOUND THEN
                    RAISE EXCEPTION 'results reference measure %, which does not exist', missing USING ERRCODE = 'foreign_key_violation';
                END IF;
                RETURN NULL;
            END $$;
            """;

        private const string SetBasedReferences = "CREATE " + CheckReferences + """

            CREATE TRIGGER results_check_inserted AFTER INSERT ON results REFERENCING NEW TABLE AS new_results
                FOR EACH STATEMENT EXECUTE FUNCTION results_check_references();
            CREATE TRIGGER results_check_updated AFTER UPDATE ON results REFERENCING NEW TABLE AS new_results
                FOR EACH STATEMENT EXECUTE FUNCTION results_check_references();

            CREATE FUNCTION results_delete_with_run() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                DELETE FROM results r USING gone g WHERE r.run_id = g.id;
                RETURN NULL;
            END $$;
            CREATE FUNCTION results_delete_with_benchmark() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                DELETE FROM results r USING gone g WHERE r.benchmark_id = g.id;
                RETURN NULL;
            END $$;
            CREATE FUNCTION results_delete_with_measure() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                DELETE FROM results r USING gone g WHERE r.measure_id = g.id;
                RETURN NULL;
            END $$;
            CREATE TRIGGER runs_delete_results AFTER DELETE ON runs REFERENCING OLD TABLE AS gone
                FOR EACH STATEMENT EXECUTE FUNCTION results_delete_with_run();
            CREATE TRIGGER benchmarks_delete_results AFTER DELETE ON benchmarks REFERENCING OLD TABLE AS gone
                FOR EACH STATEMENT EXECUTE FUNCTION results_delete_with_benchmark();
            CREATE TRIGGER measures_delete_results AFTER DELETE ON measures REFERENCING OLD TABLE AS gone
                FOR EACH STATEMENT EXECUTE FUNCTION results_delete_with_measure();
            """;

        private const string DropSetBasedReferences = """
            DROP TRIGGER measures_delete_results ON measures;
            DROP TRIGGER benchmarks_delete_results ON benchmarks;
            DROP TRIGGER runs_delete_results ON runs;
            DROP TRIGGER results_check_updated ON results;
            DROP TRIGGER results_check_inserted ON results;
            DROP FUNCTION results_delete_with_measure();
            DROP FUNCTION results_delete_with_benchmark();
            DROP FUNCTION results_delete_with_run();
            DROP FUNCTION results_check_references();
            """;

        /// <inheritdoc />
        protected override void Down(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.Sql(DropSetBasedReferences);

            migrationBuilder.DropIndex(
                name: "ix_runs_created_at_samples_kept",
                table: "runs");

            migrationBuilder.DropColumn(
                name: "samples_summarised_at",
                table: "runs");

            migrationBuilder.CreateIndex(
                name: "ix_results_measure_id",
                table: "results",
                column: "measure_id");

            migrationBuilder.AddForeignKey(
                name: "fk_results_benchmarks_benchmark_id",
                table: "results",
                column: "benchmark_id",
                principalTable: "benchmarks",
                principalColumn: "id",
                onDelete: ReferentialAction.Cascade);

            migrationBuilder.AddForeignKey(
                name: "fk_results_measures_measure_id",
                table: "results",
                column: "measure_id",
                principalTable: "measures",
                principalColumn: "id",
                onDelete: ReferentialAction.Cascade);

            migrationBuilder.AddForeignKey(
                name: "fk_results_runs_run_id",
                table: "results",
                column: "run_id",
                principalTable: "runs",
                principalColumn: "id",
                onDelete: ReferentialAction.Cascade);
        }
    }
}
