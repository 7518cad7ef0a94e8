using Microsoft.EntityFrameworkCore.Migrations;

#nullable disable

namespace PerfService.Migrations.Migrations
{
    /// <inheritdoc />
    /// <summary>
    /// Runs keep what their agent measured around them (other processes' CPU, steal, throttling) and whether they stay out
    /// of change points and baselines as disturbed. Earlier runs were not measured: null and false.
    /// </summary>
    public partial class RunDisturbance : Migration
    {
        /// <inheritdoc />
        protected override void Up(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.AddColumn<string>(
                name: "disturbance",
                table: "runs",
                type: "jsonb",
                nullable: true);

            migrationBuilder.AddColumn<bool>(
                name: "disturbed",
                table: "runs",
                type: "boolean",
                nullable: false,
                defaultValue: false);
        }

        /// <inheritdoc />
        protected override void Down(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.DropColumn(
                name: "disturbance",
                table: "runs");

            migrationBuilder.DropColumn(
                name: "disturbed",
                table: "runs");
        }
    }
}
