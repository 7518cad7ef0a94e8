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
