using System;
using Microsoft.EntityFrameworkCore.Migrations;
using Npgsql.EntityFrameworkCore.PostgreSQL.Metadata;

#nullable disable

namespace PerfService.Migrations.Migrations
{
    /// <inheritdoc />
    public partial class AlertGroups : Migration
    {
        /// <inheritdoc />
        protected override void Up(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.AddColumn<long>(
                name: "alert_group_id",
                table: "alerts",
                type: "bigint",
                nullable: true);

            migrationBuilder.AddColumn<double>(
                name: "change",
                table: "alerts",
                type: "double precision",
                nullable: true);

            migrationBuilder.CreateTable(
                name: "alert_groups",
                columns: table => new
                {
                    id = table.Column<long>(type: "bigint", nullable: false)
                        .Annotation("Npgsql:ValueGenerationStrategy", NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                    project_id = table.Column<long>(type: "bigint", nullable: false),
                    scope = table.Column<string>(type: "character varying(200)", maxLength: 200, nullable: false),
                    state = table.Column<string>(type: "character varying(32)", maxLength: 32, nullable: false),
                    from_commit = table.Column<string>(type: "character varying(64)", maxLength: 64, nullable: true),
                    to_commit = table.Column<string>(type: "character varying(64)", maxLength: 64, nullable: true),
                    from_at = table.Column<DateTimeOffset>(type: "timestamp with time zone", nullable: true),
                    to_at = table.Column<DateTimeOffset>(type: "timestamp with time zone", nullable: true),
                    issue_url = table.Column<string>(type: "text", nullable: true),
                    created_at = table.Column<DateTimeOffset>(type: "timestamp with time zone", nullable: false),
                    updated_at = table.Column<DateTimeOffset>(type: "timestamp with time zone", nullable: false)
                },
                constraints: table =>
                {
                    table.PrimaryKey("pk_alert_groups", x => x.id);
                    table.ForeignKey(
                        name: "fk_alert_groups_projects_project_id",
                        column: x => x.project_id,
                        principalTable: "projects",
                        principalColumn: "id",
                        onDelete: ReferentialAction.Cascade);
                });

            migrationBuilder.CreateIndex(
                name: "ix_alerts_alert_group_id",
                table: "alerts",
                column: "alert_group_id");

            migrationBuilder.CreateIndex(
                name: "ix_alert_groups_project_id_scope_to_at",
                table: "alert_groups",
                columns: new[] { "project_id", "scope", "to_at" });

            migrationBuilder.CreateIndex(
                name: "ix_alert_groups_project_id_state_id",
                table: "alert_groups",
                columns: new[] { "project_id", "state", "id" });

            migrationBuilder.AddForeignKey(
                name: "fk_alerts_alert_groups_alert_group_id",
                table: "alerts",
                column: "alert_group_id",
                principalTable: "alert_groups",
                principalColumn: "id",
                onDelete: ReferentialAction.SetNull);
        }

        /// <inheritdoc />
        protected override void Down(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.DropForeignKey(
                name: "fk_alerts_alert_groups_alert_group_id",
                table: "alerts");

            migrationBuilder.DropTable(
                name: "alert_groups");

            migrationBuilder.DropIndex(
                name: "ix_alerts_alert_group_id",
                table: "alerts");

            migrationBuilder.DropColumn(
                name: "alert_group_id",
                table: "alerts");

            migrationBuilder.DropColumn(
                name: "change",
                table: "alerts");
        }
    }
}
