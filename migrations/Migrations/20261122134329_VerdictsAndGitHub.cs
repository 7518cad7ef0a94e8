using System;
using Microsoft.EntityFrameworkCore.Migrations;
using Npgsql.EntityFrameworkCore.PostgreSQL.Metadata;

#nullable disable

namespace PerfService.Migrations.Migrations
{
    /// <inheritdoc />
    public partial class VerdictsAndGitHub : Migration
    {
        /// <inheritdoc />
        protected override void Up(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.CreateTable(
                name: "pull_request_comments",
                columns: table => new
                {
                    id = table.Column<long>(type: "bigint", nullable: false)
                        .Annotation("Npgsql:ValueGenerationStrategy", NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                    project_id = table.Column<long>(type: "bigint", nullable: false),
                    pull_request = table.Column<int>(type: "integer", nullable: false),
                    git_hub_comment_id = table.Column<long>(type: "bigint", nullable: true),
                    body_hash = table.Column<string>(type: "character varying(64)", maxLength: 64, nullable: true),
                    head_commit = table.Column<string>(type: "character varying(64)", maxLength: 64, nullable: true),
                    last_state = table.Column<string>(type: "character varying(16)", maxLength: 16, nullable: true),
                    updated_at = table.Column<DateTimeOffset>(type: "timestamp with time zone", nullable: false)
                },
                constraints: table =>
                {
                    table.PrimaryKey("pk_pull_request_comments", x => x.id);
                    table.ForeignKey(
                        name: "fk_pull_request_comments_projects_project_id",
                        column: x => x.project_id,
                        principalTable: "projects",
                        principalColumn: "id",
                        onDelete: ReferentialAction.Cascade);
                });

            migrationBuilder.CreateTable(
                name: "verdicts",
                columns: table => new
                {
                    id = table.Column<long>(type: "bigint", nullable: false)
                        .Annotation("Npgsql:ValueGenerationStrategy", NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                    job_id = table.Column<long>(type: "bigint", nullable: false),
                    project_id = table.Column<long>(type: "bigint", nullable: false),
                    pull_request = table.Column<int>(type: "integer", nullable: true),
                    benchmark_id = table.Column<long>(type: "bigint", nullable: false),
                    measure_id = table.Column<long>(type: "bigint", nullable: false),
                    profile_id = table.Column<long>(type: "bigint", nullable: false),
                    outcome = table.Column<string>(type: "character varying(32)", maxLength: 32, nullable: false),
                    base_median = table.Column<double>(type: "double precision", nullable: true),
                    head_median = table.Column<double>(type: "double precision", nullable: true),
                    change = table.Column<double>(type: "double precision", nullable: true),
                    change_ci_lower = table.Column<double>(type: "double precision", nullable: true),
                    change_ci_upper = table.Column<double>(type: "double precision", nullable: true),
                    p_value = table.Column<double>(type: "double precision", nullable: true),
                    adjusted_p_value = table.Column<double>(type: "double precision", nullable: true),
                    threshold = table.Column<double>(type: "double precision", nullable: false),
                    base_samples = table.Column<int>(type: "integer", nullable: false),
                    head_samples = table.Column<int>(type: "integer", nullable: false),
                    reason = table.Column<string>(type: "text", nullable: true),
                    wants_rerun = table.Column<bool>(type: "boolean", nullable: false),
                    created_at = table.Column<DateTimeOffset>(type: "timestamp with time zone", nullable: false)
                },
                constraints: table =>
                {
                    table.PrimaryKey("pk_verdicts", x => x.id);
                    table.ForeignKey(
                        name: "fk_verdicts_benchmarks_benchmark_id",
                        column: x => x.benchmark_id,
                        principalTable: "benchmarks",
                        principalColumn: "id",
                        onDelete: ReferentialAction.Cascade);
                    table.ForeignKey(
                        name: "fk_verdicts_jobs_job_id",
                        column: x => x.job_id,
                        principalTable: "jobs",
                        principalColumn: "id",
                        onDelete: ReferentialAction.Cascade);
                    table.ForeignKey(
                        name: "fk_verdicts_measures_measure_id",
                        column: x => x.measure_id,
                        principalTable: "measures",
                        principalColumn: "id",
                        onDelete: ReferentialAction.Cascade);
                    table.ForeignKey(
                        name: "fk_verdicts_profiles_profile_id",
                        column: x => x.profile_id,
                        principalTable: "profiles",
                        principalColumn: "id",
                        onDelete: ReferentialAction.Cascade);
                    table.ForeignKey(
                        name: "fk_verdicts_projects_project_id",
                        column: x => x.project_id,
                        principalTable: "projects",
                        principalColumn: "id",
                        onDelete: ReferentialAction.Cascade);
                });

            migrationBuilder.CreateTable(
                name: "webhook_deliveries",
                columns: table => new
                {
                    id = table.Column<long>(type: "bigint", nullable: false)
                        .Annotation("Npgsql:ValueGenerationStrategy", NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                    delivery_id = table.Column<string>(type: "character varying(100)", maxLength: 100, nullable: false),
                    @event = table.Column<string>(name: "event", type: "character varying(64)", maxLength: 64, nullable: false),
                    received_at = table.Column<DateTimeOffset>(type: "timestamp with time zone", nullable: false)
                },
                constraints: table =>
                {
                    table.PrimaryKey("pk_webhook_deliveries", x => x.id);
                });

            migrationBuilder.CreateIndex(
                name: "ix_pull_request_comments_project_id_pull_request",
                table: "pull_request_comments",
                columns: new[] { "project_id", "pull_request" },
                unique: true);

            migrationBuilder.CreateIndex(
                name: "ix_verdicts_benchmark_id",
                table: "verdicts",
                column: "benchmark_id");

            migrationBuilder.CreateIndex(
                name: "ix_verdicts_job_id_benchmark_id_measure_id",
                table: "verdicts",
                columns: new[] { "job_id", "benchmark_id", "measure_id" },
                unique: true);

            migrationBuilder.CreateIndex(
                name: "ix_verdicts_measure_id",
                table: "verdicts",
                column: "measure_id");

            migrationBuilder.CreateIndex(
                name: "ix_verdicts_profile_id",
                table: "verdicts",
                column: "profile_id");

            migrationBuilder.CreateIndex(
                name: "ix_verdicts_project_id_pull_request",
                table: "verdicts",
                columns: new[] { "project_id", "pull_request" });

            migrationBuilder.CreateIndex(
                name: "ix_webhook_deliveries_delivery_id",
                table: "webhook_deliveries",
                column: "delivery_id",
                unique: true);
        }

        /// <inheritdoc />
        protected override void Down(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.DropTable(
                name: "pull_request_comments");

            migrationBuilder.DropTable(
                name: "verdicts");

            migrationBuilder.DropTable(
                name: "webhook_deliveries");
        }
    }
}
