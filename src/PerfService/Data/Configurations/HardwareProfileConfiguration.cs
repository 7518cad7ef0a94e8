using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Metadata.Builders;
using PerfService.Data.Entities;

namespace PerfService.Data.Configurations;

public class HardwareProfileConfiguration : IEntityTypeConfiguration<HardwareProfile>
{
    public void Configure(EntityTypeBuilder<HardwareProfile> b)
    {
        b.ToTable("profiles");
        b.Property(x => x.Name).HasMaxLength(100);
        b.HasIndex(x => x.Name).IsUnique();
        // The reference profiles (deploy/profiles.json declares the same for the agents).
        b.HasData(
            new HardwareProfile
            {
                Id = 1,
                Name = "ryzen-9950x",
                CpuModel = "AMD Ryzen 9 9950X",
                PhysicalCores = 16,
                LogicalCores = 32,
                Arch = "x64",
            },
            new HardwareProfile
            {
                Id = 2,
                Name = "i7-4790k",
                CpuModel = "Intel Core i7-4790K",
                PhysicalCores = 4,
                LogicalCores = 8,
                Arch = "x64",
            },
            new HardwareProfile
            {
                Id = 3,
                Name = "m1-pro",
                CpuModel = "Apple M1 Pro",
                PhysicalCores = 10,
                LogicalCores = 10,
                Arch = "arm64",
            }
        );
        b.Property(x => x.Id).UseIdentityByDefaultColumn().HasIdentityOptions(startValue: 100);
    }
}
