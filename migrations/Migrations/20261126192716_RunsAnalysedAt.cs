using System;
using Microsoft.EntityFrameworkCore.Migrations;

#nullable disable

namespace PerfService.Migrations.Migrations
{
    /// <inheritdoc />
    /// <summary>
    /// Runs record when analysis took them; the change-point reads leave out runs not yet analysed. Every run not waiting
    /// in the analysis queue was analysed (or, posted but never queued, was fed to its series by the reads before this
    /// change, which took every stored point), so it counts as analysed from its creation; the waiting ones stay open.
    /// </summary>
    public partial class RunsAnalysedAt : Migration
    {
        /// <inheritdoc />
        protected override void Up(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.AddColumn<DateTimeOffset>(
                name: "analysed_at",
                table: "runs",
                type: "timestamp with time zone",
                nullable: true);
            migrationBuilder.Sql("UPDATE runs SET analysed_at = created_at WHERE NOT EXISTS (SELECT 1 FROM analysis_queue q WHERE q.run_id = runs.id);");
        }

        /// <inheritdoc />
        protected override void Down(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.DropColumn(
                name: "analysed_at",
                table: "runs");
        }
    }
}
