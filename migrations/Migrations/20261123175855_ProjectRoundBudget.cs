using Microsoft.EntityFrameworkCore.Migrations;

#nullable disable

namespace PerfService.Migrations.Migrations
{
    /// <inheritdoc />
    public partial class ProjectRoundBudget : Migration
    {
        /// <inheritdoc />
        protected override void Up(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.AddColumn<int>(
                name: "round_budget",
                table: "projects",
                type: "integer",
                nullable: true);
        }

        /// <inheritdoc />
        protected override void Down(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.DropColumn(
                name: "round_budget",
                table: "projects");
        }
    }
}
