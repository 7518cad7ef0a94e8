using Microsoft.EntityFrameworkCore.Migrations;

#nullable disable

namespace PerfService.Migrations.Migrations
{
    /// <inheritdoc />
    public partial class CpuProfileSlots : Migration
    {
        /// <inheritdoc />
        protected override void Up(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.DropIndex(
                name: "ix_cpu_profiles_job_id_benchmark",
                table: "cpu_profiles");

            // A retried upload could store one slot twice before this index; keep the first of each slot so the
            // unique index can be built on a database that holds such repeats.
            migrationBuilder.Sql(
                """
                DELETE FROM cpu_profiles later
                USING cpu_profiles first
                WHERE later.job_id = first.job_id AND later.benchmark = first.benchmark AND later.suite = first.suite
                  AND later.role = first.role AND later.round = first.round AND later.id > first.id;
                """);

            migrationBuilder.CreateIndex(
                name: "ix_cpu_profiles_job_id_benchmark_suite_role_round",
                table: "cpu_profiles",
                columns: new[] { "job_id", "benchmark", "suite", "role", "round" },
                unique: true);
        }

        /// <inheritdoc />
        protected override void Down(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.DropIndex(
                name: "ix_cpu_profiles_job_id_benchmark_suite_role_round",
                table: "cpu_profiles");

            migrationBuilder.CreateIndex(
                name: "ix_cpu_profiles_job_id_benchmark",
                table: "cpu_profiles",
                columns: new[] { "job_id", "benchmark" });
        }
    }
}
