using Microsoft.EntityFrameworkCore.Migrations;

#nullable disable

namespace PerfService.Migrations.Migrations
{
    /// <inheritdoc />
    public partial class PullRequestCheckRuns : Migration
    {
        /// <inheritdoc />
        protected override void Up(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.AddColumn<string>(
                name: "check_run_head",
                table: "pull_request_comments",
                type: "character varying(64)",
                maxLength: 64,
                nullable: true);

            migrationBuilder.AddColumn<long>(
                name: "check_run_id",
                table: "pull_request_comments",
                type: "bigint",
                nullable: true);

            migrationBuilder.AddColumn<string>(
                name: "notes",
                table: "pull_request_comments",
                type: "character varying(8000)",
                maxLength: 8000,
                nullable: true);

            migrationBuilder.CreateIndex(
                name: "ix_pull_request_comments_check_run_id",
                table: "pull_request_comments",
                column: "check_run_id");
        }

        /// <inheritdoc />
        protected override void Down(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.DropIndex(
                name: "ix_pull_request_comments_check_run_id",
                table: "pull_request_comments");

            migrationBuilder.DropColumn(
                name: "check_run_head",
                table: "pull_request_comments");

            migrationBuilder.DropColumn(
                name: "check_run_id",
                table: "pull_request_comments");

            migrationBuilder.DropColumn(
                name: "notes",
                table: "pull_request_comments");
        }
    }
}
