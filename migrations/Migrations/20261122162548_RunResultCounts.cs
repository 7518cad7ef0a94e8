using Microsoft.EntityFrameworkCore.Migrations;

#nullable disable

namespace PerfService.Migrations.Migrations
{
    /// <inheritdoc />
    public partial class RunResultCounts : Migration
    {
        /// <inheritdoc />
        protected override void Up(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.AddColumn<int>(
                name: "failed_count",
                table: "runs",
                type: "integer",
                nullable: false,
                defaultValue: 0);

            migrationBuilder.AddColumn<int>(
                name: "result_count",
                table: "runs",
                type: "integer",
                nullable: false,
                defaultValue: 0);

            // Runs stored before this migration get their counts from their results, once.
            migrationBuilder.Sql("""
                UPDATE runs r SET result_count = c.n, failed_count = c.f
                FROM (SELECT run_id, count(*) AS n, count(*) FILTER (WHERE error IS NOT NULL) AS f FROM results GROUP BY run_id) c
                WHERE c.run_id = r.id
                """);
        }

        /// <inheritdoc />
        protected override void Down(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.DropColumn(
                name: "failed_count",
                table: "runs");

            migrationBuilder.DropColumn(
                name: "result_count",
                table: "runs");
        }
    }
}
