using System;
using Microsoft.EntityFrameworkCore.Migrations;
using Npgsql.EntityFrameworkCore.PostgreSQL.Metadata;

#nullable disable

namespace PerfService.Migrations.Migrations
{
    /// <inheritdoc />
    public partial class PullRequestApprovals : Migration
    {
        /// <inheritdoc />
        protected override void Up(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.AddColumn<string>(
                name: "body_sha256",
                table: "webhook_deliveries",
                type: "character varying(64)",
                maxLength: 64,
                nullable: true);

            migrationBuilder.AddColumn<string>(
                name: "approval_label",
                table: "projects",
                type: "character varying(50)",
                maxLength: 50,
                nullable: false,
                defaultValue: "perf:run");

            migrationBuilder.AddColumn<string>(
                name: "pull_request_policy",
                table: "projects",
                type: "character varying(32)",
                maxLength: 32,
                nullable: false,
                defaultValue: "Members");

            migrationBuilder.AddColumn<bool>(
                name: "untrusted",
                table: "jobs",
                type: "boolean",
                nullable: false,
                defaultValue: false);

            migrationBuilder.CreateTable(
                name: "pull_request_approvals",
                columns: table => new
                {
                    id = table.Column<long>(type: "bigint", nullable: false)
                        .Annotation("Npgsql:ValueGenerationStrategy", NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                    project_id = table.Column<long>(type: "bigint", nullable: false),
                    pull_request = table.Column<int>(type: "integer", nullable: false),
                    head_commit = table.Column<string>(type: "character varying(64)", maxLength: 64, nullable: false),
                    approved_by = table.Column<string>(type: "character varying(250)", maxLength: 250, nullable: false),
                    source = table.Column<string>(type: "character varying(16)", maxLength: 16, nullable: false),
                    approved_at = table.Column<DateTimeOffset>(type: "timestamp with time zone", nullable: false)
                },
                constraints: table =>
                {
                    table.PrimaryKey("pk_pull_request_approvals", x => x.id);
                    table.ForeignKey(
                        name: "fk_pull_request_approvals_projects_project_id",
                        column: x => x.project_id,
                        principalTable: "projects",
                        principalColumn: "id",
                        onDelete: ReferentialAction.Cascade);
                });

            migrationBuilder.CreateTable(
                name: "pull_request_heads",
                columns: table => new
                {
                    id = table.Column<long>(type: "bigint", nullable: false)
                        .Annotation("Npgsql:ValueGenerationStrategy", NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                    project_id = table.Column<long>(type: "bigint", nullable: false),
                    pull_request = table.Column<int>(type: "integer", nullable: false),
                    head_commit = table.Column<string>(type: "character varying(64)", maxLength: 64, nullable: false),
                    head_repository = table.Column<string>(type: "character varying(200)", maxLength: 200, nullable: true),
                    author = table.Column<string>(type: "character varying(100)", maxLength: 100, nullable: true),
                    author_association = table.Column<string>(type: "character varying(32)", maxLength: 32, nullable: true),
                    trusted = table.Column<bool>(type: "boolean", nullable: false),
                    updated_at = table.Column<DateTimeOffset>(type: "timestamp with time zone", nullable: false),
                    received_at = table.Column<DateTimeOffset>(type: "timestamp with time zone", nullable: false)
                },
                constraints: table =>
                {
                    table.PrimaryKey("pk_pull_request_heads", x => x.id);
                    table.ForeignKey(
                        name: "fk_pull_request_heads_projects_project_id",
                        column: x => x.project_id,
                        principalTable: "projects",
                        principalColumn: "id",
                        onDelete: ReferentialAction.Cascade);
                });

            migrationBuilder.CreateIndex(
                name: "ix_webhook_deliveries_body_sha256",
                table: "webhook_deliveries",
                column: "body_sha256",
                unique: true);

            migrationBuilder.CreateIndex(
                name: "ix_pull_request_approvals_project_id_pull_request_head_commit",
                table: "pull_request_approvals",
                columns: new[] { "project_id", "pull_request", "head_commit" },
                unique: true);

            migrationBuilder.CreateIndex(
                name: "ix_pull_request_heads_project_id_pull_request",
                table: "pull_request_heads",
                columns: new[] { "project_id", "pull_request" },
                unique: true);
        }

        /// <inheritdoc />
        protected override void Down(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.DropTable(
                name: "pull_request_approvals");

            migrationBuilder.DropTable(
                name: "pull_request_heads");

            migrationBuilder.DropIndex(
                name: "ix_webhook_deliveries_body_sha256",
                table: "webhook_deliveries");

            migrationBuilder.DropColumn(
                name: "body_sha256",
                table: "webhook_deliveries");

            migrationBuilder.DropColumn(
                name: "approval_label",
                table: "projects");

            migrationBuilder.DropColumn(
                name: "pull_request_policy",
                table: "projects");

            migrationBuilder.DropColumn(
                name: "untrusted",
                table: "jobs");
        }
    }
}
