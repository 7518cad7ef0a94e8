using System;
using Microsoft.EntityFrameworkCore.Migrations;

#nullable disable

namespace PerfService.Migrations.Migrations
{
    /// <inheritdoc />
    /// <summary>
    /// Pull-request jobs record when their comparison wrote its verdicts: a succeeded job not yet judged keeps its profile
    /// pending in the report. Jobs that succeeded before this change were judged (their comparison ran, or is queued and
    /// will write what it finds), so they count as judged from when they finished. Check runs keep the state GitHub last
    /// accepted, since a completed one is final; rows from before this change are unknown and found out on the next change.
    /// </summary>
    public partial class JudgedJobsAndCheckRunState : Migration
    {
        /// <inheritdoc />
        protected override void Up(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.AddColumn<string>(
                name: "check_run_state",
                table: "pull_request_comments",
                type: "character varying(32)",
                maxLength: 32,
                nullable: true);

            migrationBuilder.AddColumn<DateTimeOffset>(
                name: "judged_at",
                table: "jobs",
                type: "timestamp with time zone",
                nullable: true);
            migrationBuilder.Sql("UPDATE jobs SET judged_at = finished_at WHERE state = 'Succeeded' AND pull_request IS NOT NULL;");
        }

        /// <inheritdoc />
        protected override void Down(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.DropColumn(
                name: "check_run_state",
                table: "pull_request_comments");

            migrationBuilder.DropColumn(
                name: "judged_at",
                table: "jobs");
        }
    }
}
