export * from "./accounts";
export * from "./areas";
export * from "./bookings";
export * from "./content";
export * from "./menus";
export * from "./reviews";
export * from "./salons";
export * from "./staff";
