using System;
using Microsoft.EntityFrameworkCore.Migrations;
using Npgsql.EntityFrameworkCore.PostgreSQL.Metadata;

#nullable disable

namespace PerfService.Migrations.Migrations
{
    /// <inheritdoc />
    /// <summary>
    /// CPU profiles of base and head, recorded by profiling jobs: the agent's native file and the folded stacks the
    /// differential flame graph reads, both compressed. Jobs say what to profile (jsonb), which agent must take it (the
    /// one that measured the regression) and which change-point alert it explains.
    /// </summary>
    public partial class CpuProfiles : Migration
    {
        /// <inheritdoc />
        protected override void Up(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.AddColumn<long>(
                name: "alert_id",
                table: "jobs",
                type: "bigint",
                nullable: true);

            migrationBuilder.AddColumn<long>(
                name: "pinned_agent_id",
                table: "jobs",
                type: "bigint",
                nullable: true);

            migrationBuilder.AddColumn<string>(
                name: "profiling",
                table: "jobs",
                type: "jsonb",
                nullable: true);

            migrationBuilder.CreateTable(
                name: "cpu_profiles",
                columns: table => new
                {
                    id = table.Column<long>(type: "bigint", nullable: false)
                        .Annotation("Npgsql:ValueGenerationStrategy", NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                    job_id = table.Column<long>(type: "bigint", nullable: false),
                    project_id = table.Column<long>(type: "bigint", nullable: false),
                    profile_id = table.Column<long>(type: "bigint", nullable: false),
                    agent_id = table.Column<long>(type: "bigint", nullable: true),
                    suite = table.Column<string>(type: "character varying(200)", maxLength: 200, nullable: false),
                    benchmark = table.Column<string>(type: "character varying(1000)", maxLength: 1000, nullable: false),
                    role = table.Column<string>(type: "character varying(8)", maxLength: 8, nullable: false),
                    round = table.Column<int>(type: "integer", nullable: false),
                    format = table.Column<string>(type: "character varying(32)", maxLength: 32, nullable: false),
                    native_size = table.Column<long>(type: "bigint", nullable: false),
                    native_gzip = table.Column<byte[]>(type: "bytea", nullable: false),
                    folded_gzip = table.Column<byte[]>(type: "bytea", nullable: false),
                    samples = table.Column<long>(type: "bigint", nullable: false),
                    created_at = table.Column<DateTimeOffset>(type: "timestamp with time zone", nullable: false)
                },
                constraints: table =>
                {
                    table.PrimaryKey("pk_cpu_profiles", x => x.id);
                    table.ForeignKey(
                        name: "fk_cpu_profiles_agents_agent_id",
                        column: x => x.agent_id,
                        principalTable: "agents",
                        principalColumn: "id",
                        onDelete: ReferentialAction.SetNull);
                    table.ForeignKey(
                        name: "fk_cpu_profiles_jobs_job_id",
                        column: x => x.job_id,
                        principalTable: "jobs",
                        principalColumn: "id",
                        onDelete: ReferentialAction.Cascade);
                    table.ForeignKey(
                        name: "fk_cpu_profiles_profiles_profile_id",
                        column: x => x.profile_id,
                        principalTable: "profiles",
                        principalColumn: "id",
                        onDelete: ReferentialAction.Cascade);
                    table.ForeignKey(
                        name: "fk_cpu_profiles_projects_project_id",
                        column: x => x.project_id,
                        principalTable: "projects",
                        principalColumn: "id",
                        onDelete: ReferentialAction.Cascade);
                });

            migrationBuilder.CreateIndex(
                name: "ix_jobs_alert_id",
                table: "jobs",
                column: "alert_id");

            migrationBuilder.CreateIndex(
                name: "ix_jobs_pinned_agent_id",
                table: "jobs",
                column: "pinned_agent_id");

            migrationBuilder.CreateIndex(
                name: "ix_cpu_profiles_agent_id",
                table: "cpu_profiles",
                column: "agent_id");

            migrationBuilder.CreateIndex(
                name: "ix_cpu_profiles_created_at",
                table: "cpu_profiles",
                column: "created_at");

            migrationBuilder.CreateIndex(
                name: "ix_cpu_profiles_job_id_benchmark",
                table: "cpu_profiles",
                columns: new[] { "job_id", "benchmark" });

            migrationBuilder.CreateIndex(
                name: "ix_cpu_profiles_profile_id",
                table: "cpu_profiles",
                column: "profile_id");

            migrationBuilder.CreateIndex(
                name: "ix_cpu_profiles_project_id",
                table: "cpu_profiles",
                column: "project_id");

            migrationBuilder.AddForeignKey(
                name: "fk_jobs_agents_pinned_agent_id",
                table: "jobs",
                column: "pinned_agent_id",
                principalTable: "agents",
                principalColumn: "id",
                onDelete: ReferentialAction.SetNull);

            migrationBuilder.AddForeignKey(
                name: "fk_jobs_alerts_alert_id",
                table: "jobs",
                column: "alert_id",
                principalTable: "alerts",
                principalColumn: "id",
                onDelete: ReferentialAction.SetNull);
        }

        /// <inheritdoc />
        protected override void Down(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.DropForeignKey(
                name: "fk_jobs_agents_pinned_agent_id",
                table: "jobs");

            migrationBuilder.DropForeignKey(
                name: "fk_jobs_alerts_alert_id",
                table: "jobs");

            migrationBuilder.DropTable(
                name: "cpu_profiles");

            migrationBuilder.DropIndex(
                name: "ix_jobs_alert_id",
                table: "jobs");

            migrationBuilder.DropIndex(
                name: "ix_jobs_pinned_agent_id",
                table: "jobs");

            migrationBuilder.DropColumn(
                name: "alert_id",
                table: "jobs");

            migrationBuilder.DropColumn(
                name: "pinned_agent_id",
                table: "jobs");

            migrationBuilder.DropColumn(
                name: "profiling",
                table: "jobs");
        }
    }
}
