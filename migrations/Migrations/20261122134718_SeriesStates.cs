using System;
using Microsoft.EntityFrameworkCore.Migrations;
using Npgsql.EntityFrameworkCore.PostgreSQL.Metadata;

#nullable disable

namespace PerfService.Migrations.Migrations
{
    /// <inheritdoc />
    public partial class SeriesStates : Migration
    {
        /// <inheritdoc />
        protected override void Up(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.CreateTable(
                name: "series_states",
                columns: table => new
                {
                    id = table.Column<long>(type: "bigint", nullable: false)
                        .Annotation("Npgsql:ValueGenerationStrategy", NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                    benchmark_id = table.Column<long>(type: "bigint", nullable: false),
                    measure_id = table.Column<long>(type: "bigint", nullable: false),
                    profile_id = table.Column<long>(type: "bigint", nullable: false),
                    branch_id = table.Column<long>(type: "bigint", nullable: false),
                    state = table.Column<string>(type: "jsonb", nullable: false),
                    last_series_at = table.Column<DateTimeOffset>(type: "timestamp with time zone", nullable: false),
                    last_result_id = table.Column<long>(type: "bigint", nullable: false),
                    updated_at = table.Column<DateTimeOffset>(type: "timestamp with time zone", nullable: false)
                },
                constraints: table =>
                {
                    table.PrimaryKey("pk_series_states", x => x.id);
                    table.ForeignKey(
                        name: "fk_series_states_benchmarks_benchmark_id",
                        column: x => x.benchmark_id,
                        principalTable: "benchmarks",
                        principalColumn: "id",
                        onDelete: ReferentialAction.Cascade);
                    table.ForeignKey(
                        name: "fk_series_states_branches_branch_id",
                        column: x => x.branch_id,
                        principalTable: "branches",
                        principalColumn: "id",
                        onDelete: ReferentialAction.Cascade);
                    table.ForeignKey(
                        name: "fk_series_states_measures_measure_id",
                        column: x => x.measure_id,
                        principalTable: "measures",
                        principalColumn: "id",
                        onDelete: ReferentialAction.Cascade);
                    table.ForeignKey(
                        name: "fk_series_states_profiles_profile_id",
                        column: x => x.profile_id,
                        principalTable: "profiles",
                        principalColumn: "id",
                        onDelete: ReferentialAction.Cascade);
                });

            migrationBuilder.CreateIndex(
                name: "ix_series_states_benchmark_id_measure_id_profile_id_branch_id",
                table: "series_states",
                columns: new[] { "benchmark_id", "measure_id", "profile_id", "branch_id" },
                unique: true);

            migrationBuilder.CreateIndex(
                name: "ix_series_states_branch_id",
                table: "series_states",
                column: "branch_id");

            migrationBuilder.CreateIndex(
                name: "ix_series_states_measure_id",
                table: "series_states",
                column: "measure_id");

            migrationBuilder.CreateIndex(
                name: "ix_series_states_profile_id",
                table: "series_states",
                column: "profile_id");
        }

        /// <inheritdoc />
        protected override void Down(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.DropTable(
                name: "series_states");
        }
    }
}
