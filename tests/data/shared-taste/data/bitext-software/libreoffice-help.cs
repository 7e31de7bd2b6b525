Dělení/zlomek
Opakovaným kliknutím na čáru či roh přepínáte mezi těmito třemi stavy.
D1 = D. MMM YYYY a podobné formáty,
Importní a exportní filtry
Zachová původní velikost ořezávaného obrázku, takže se mění jen měřítko obrázku. Chcete-li zmenšit měřítko obrázku, zaškrtněte tuto možnost a zadejte do polí záporné hodnoty. Chcete-li zvětšit měřítko obrázku, zadejte kladné hodnoty.
Vrátí součet součtů druhých mocnin odpovídajících si hodnot dvou matic.
NOT Databáze.Tabulka.Společnost
Najednou může být otevřena pouze jediná instance shellu APSO. Je-li proto shell již otevřen, volání této metody nic neprovede.
Imaginární část
Relace
Funkce MonthName [VBA]
Zadejte název rámce, ve kterém se má URL otevřít. Také je možné vybrat standardní rámec ze seznamu.
Možnosti nahrazení jsou uvedeny pod polem Najít a v části Ostatní možnosti tohoto dialogového okna.
Zobrazí během prezentace ukazatel myši.
ne
QBColor (ČísloBarvy As Integer)
Zobrazuje vytvářený vzorec. Zapište požadované údaje přímo, nebo je vyplňte s pomocí Průvodce.
Po klepnutí se zobrazí další efekt nebo další snímek.
Spočítá dobu trvání (počet roků) pro cenný papír s fixní úrokovou sazbou.
Spouštění skriptů jazyka LibreOffice Basic
V poli Styl odstavce vyberte styl odstavce, který si přejete zahrnout do obsahu.
Menšitel 1[; Menšitel 2][; ... ;[ Menšitel 254]] jsou čísla nebo odkazy na buňky obsahující čísla.
Otevře dialogové okno Najít a nahradit, které nabízí pro vyhledávání v dokumentu další možnosti.
Vyberte kategorii popisku nebo zadejte název, chcete-li vytvořit novou kategorii. Název kategorie se zobrazí před číslem popisku. Každá přednastavená kategorie popisku se formátuje pomocí stylu stejného názvu. Příklad: kategorie "Ilustrace" se formátuje pomocí stylu odstavce "Ilustrace".
Vyberte pořadí tisku stránek.
Zobrazí nebo skryje hlavní nabídku.
Otevře nové okno výchozího poštovního klienta s aktuálním dokumentem jako přílohou. Použije se formát programu Microsoft Word.
levandulová
Matice je souvislá oblast buněk, které obsahují nějaké hodnoty. Čtvercová oblast 3 řádků a 3 sloupců je matice 3 x 3:
Je-li kurzor na začátku záhlaví, vloží tabulátor.
millisec: Číselný výraz určující dobu (v milisekundách), kterou bude program čekat.
Pokud se platby uskutečňují v pravidelných intervalech, použijte funkci NPV.
Zobrazí vyskakovací okno s informacemi získanými od ovladače skeneru: adresou zařízení, výrobcem, modelem a typem skeneru.
ImaginárníČislo imaginární část komplexního čísla.
Jak upravit skupinu
Přiřadit sloupce
Modus
Zvolte kartu Vložit/Úpravy - Sekce - Pozadí
Klávesové zkratky v LibreOffice
Vyberte úroveň, kterou chcete vytvořit nebo upravit.
Soubor bude otevřen v nejvyšším rámci v hierarchii.
Většina událostí se vztahuje k dokumentům, výjimkou jsou OnStartApp, OnCloseApp, OnCreate a OnLoadFinished, které nastávají na úrovni aplikace. Události OnSubComponentOpened a OnSubComponentClosed jsou vyvolány formuláři databáze.
StředníHodnota představuje střední hodnotu normálního rozdělení.
Estonština
Vytiskne vzorec bez úpravy aktuální velikosti písma. U větších vzorců může dojít k oříznutí části textu.
Určuje šířku dialogového okna.
Vloží relaci větší než se dvěma zástupnými znaky. Také můžete napsat <?>gt<?> nebo <?> > <?> v okně Příkazy.
Povolit sdílení pro tento ovladač
Pokud zadáte jako argumenty Číslo 1; 2 a 3 hodnoty 2; 3 a 4, získáte výsledek 29.
Přehrávání filmového nebo zvukového souboru
Příklad: ABS -34 vrátí 34
Pokud nelze data připojit, zobrazí se v dialogovém okně Informace o sloupci seznam polí, jejichž obsah nelze zkopírovat. Pokud toto okno potvrdíte tlačítkem OK, připojí se pouze údaje, které nejsou zobrazeny v seznamu.
959 Návěstí je již definováno
Instanci pro ovládací prvek lze také získat prostřednictvím služby SFDialogs.DialogEvent za předpokladu, že dialogové okno bylo službou Dialog inicializováno. DialogEvent totiž vrátí instanci třídy SFDialogs.DialogControl, která událost spustila.
Úpravy - Kopírovat Ctrl+C.
Funkce Array nebo DimArray
=ROMAN(999) vrátí "CMXCIX" (použije se režim zjednodušení nula, který je výchozí).
Zvolte List - Zobrazit list.
Zvolte Soubor - Elektronické podpisy - Podepsat existující PDF.
Zaškrtnutím tohoto pole zajistíte relativní ukládání URL na internetu.
Na liště Vzorec zadejte funkci, kterou chcete použít, například =SUM.
Tuto funkci lze použít bez dvou volitelných parametrů - den v týdnu a svátky - tím, že je vynecháte:
Pokud je obsah chráněn heslem, zrušte zaškrtnutí pole Zamknuto v části Ochrana proti zápisu a zadejte správné heslo.
V prohlížeči zdrojů dat je možné zkopírovat tabulku přetažením na složku tabulek. Pokud na první straně dialogového okna Kopírovat tabulku zaškrtnete pole Přiložit data, otevře se jako druhé dialogové okno Přiřadit sloupce. Toto okno je možné použít k přiřazení obsahu datových polí ze zdrojové tabulky na různá datová pole v cílové tabulce.
Otevře dialogové okno Hloubka vytlačení.
Pokud chcete vybrat oblast dat z několika k sobě nepřiléhajících oblastí, vyberte první oblast, ručně přidejte na konec vstupního pole s aktuální oblastí středník a poté myší vyberte další oblast. Tento postup lze opakovat.
Šipka tvaru harpuny
Zvolte Vložit - Obrázek - Ze souboru.
čínština
Jakýkoli znak
Otevřete dialog Tisk (zvolte Soubor - Tisk) a vyberte v seznamu Název ovladač faxu.
Vyberte typ číslování pro poznámky pod čarou nebo vysvětlivky.
Zadejte pojem, který chcete nahradit pojmem z Mapování.
Barva objektu
Seznam dokumentů a aplikací LibreOffice. Klepněte na název umístění, kam chcete uložit makra.
Skupině buněk můžete přiřadit formát tím, že napřed tyto buňky vyberete (pro vícenásobný výběr podržte při klepání klávesu Ctrl) a následným vyvoláním dialogového okna Formát buněk v Formát - Buňky. V tomto okně můžete vybrat vlastnosti jako stínování nebo pozadí.
Jako další možnost přidržte klávesu Alt a klepněte myší na jméno libovolného listu a zadejte nové jméno přímo.
ISO-2022-KR (korejština)
Uloží aktuální databázový soubor pod jiným názvem. V dialogovém okně Uložit soubor zvolte cestu a název souboru.
Nastavení voleb tiskárny pro aktuální prezentaci
Analýza rozptylu (ANOVA)
Vloží zástupný znak mezi dvojité svislé čáry. Lze také zadat příkaz ldline <?> rdline v okně Příkazy.
Nom je nominální úrok.
Vodoznak
Definice Barvy Pozadí v sešitě aplikace LibreOffice Calc.
Chcete-li vybrat více buněk v různých oblastech listu, podržte Ctrl a přetáhnutím označte různé oblasti.
Animace textu
* (hvězdička) odpovídá jakékoliv posloupnosti znaků včetně prázdného řetězce
Případně je možné odstranit odpovídající záznamy v poli Použitá pole v dialogovém okně Relace nebo pomocí klávesy Tab vybrat relaci (zobrazí se zvětšeně), poté stisknutím Shift+F10 zobrazit místní nabídku a zvolit příkaz Odstranit.
Pomocí ikon se šipkami v dolní části rejstříku můžete procházet seznam položek nebo filtrovaných výsledků vpřed a zpět.
Pro přidání tlačítka do dokumentu
Ujistěte se, že je mobilní zařízení spárováno s počítačem pomocí Bluetooth nebo síťového připojení.
Specifické vlastnosti a metody použitelné na dokumenty jsou implementovány v třídě dokumentu.
Výraz1, Výraz2: Výrazy, které chcete použít jako vstup operace.
Vrací úrokovou sazbu úvěru nebo investice.
Ukládání záložek se stránkami nápovědy
Zrušení výběru všech položek:
Testuje, zda jde o logickou hodnotu (PRAVDA nebo NEPRAVDA).
Do pole Vložit text napište text, který chcete skrýt.
S polem určeným v Datové pole se spojí databázové pole "Pole1".
Otevře dialogové okno Zobrazit certifikát.
Upravit oblasti tisku
=0 vrátí všechny záznamy, kde má pole Ano/Ne stav Ne nebo Vypnuto (neoznačeno).
Orientace textu
Přiřazení pozadí ke znakům
Vzdálenost mezi levými okraji sousedních štítků nebo vizitek. Pokud nastavujete vlastní formát, zadejte zde hodnotu.
Udává, zda budou odpovídající soubory hledány i v podadresářích vybraného adresáře.
Vytvořením konfiguračního souboru javasettings_${_OS}_${_ARCH}.xml ve složce <instdir>/presets/config.
Knihovny a moduly Basicu lze spravovat pomocí objektu BasicLibraries. Knihovny lze vyhledávat, procházet a na vyžádání načítat. Načítání knihoven LibreOffice je ukázáno v části Sledování událostí v dokumentu.
V seznamu u spodního okraje navigátoru vyberte dokument obsahující prvek, na který chcete odkazovat.
Pokud byl původní dokument upraven, zobrazí se chybové hlášení o neúspěchu sloučení.
Přejít na Průvodce poradou - Body programu
Např. je možné vygenerovat přehled prodejů pro určité město podle údajů z databáze klientů.
Vybrat zdroj
Pokud tisknete dokument, který obsahuje databázová pole, budete v dialogovém okně dotázán, zda chcete vytisknout formulářový dopis. Pokud odpovíte "ano", bude zobrazen dialog Hromadná korespondence, ve kterém můžete vybrat databázové záznamy, které se mají vytisknout.
Vložit snímek ze souboru
Kontrolovat pravopis během psaní
+ 5 0 - 8 (stiskněte klávesu Enter)
Nezávisle na uživatelském místním nastavení je datum odesíláno ve výchozím formátu MM-DD-YYYY (měsíc-den-rok).
Vypočte kumulovaný úrok, který se má zaplatit mezi dvěma obdobími při konstantní úrokové míře.
Zvolte Data - Seskupení a souhrn - Zrušit seskupení.
Sníží úroveň osnovy vybraného nadpisu a jemu podřízených nadpisů o jednu. Chcete-li snížit úroveň osnovy pouze u vybraného nadpisu, podržte Ctrl a poté klepněte na tuto ikonu.
Směrodatná odchylka: Zobrazí směrodatnou odchylku (druhá odmocnina rozptylu). Na rozdíl od jiných funkcí představuje střed chybové úsečky střední hodnota.
Zvolte Nástroje - Makra - Spustit makro.
Pomocí těchto příkazů a funkcí je možné pracovat s datovými a časovými údaji.
Klepnutím na ikonu „Zastavit“ vykonávání programu zastavíte.
SUMIF podporuje operátor řetězení (~) pouze v parametru Kritéria a pouze tehdy, není-li zadán volitelný parametr SumaOblasti.
=CHIINV(0,02;5) vrátí 13,39.
Pokud argument foldername určuje složku, která neexistuje, je vyvolána výjimka.
Nastaví otočení a škálování označeného textu.
Definování různých záhlaví a zápatí
Nástroje - Možnosti - LibreOffice Writer - Obecné
EQ nebo ==
kladné
Svisle
Kde uvedené akce jsou:
V aplikaci Writer je číslo stránky pole, které je možné vložit do textu.
Matice se dvěma řádky a třemi hodnotami v každém řádku.
Ostatní možnosti
V odstavci se hledá vždy nejdelší řetězec odpovídající regulárnímu výrazu. Pokud by odstavec obsahoval řetězec "AX 4 AX4", označil by se celý tento řetězec.
Logaritmus
Nastavit zaměření na pole Použít styl
Zvolte Tvar (jen LibreOffice Draw)
Chcete-li vytvořit číslovaný seznam, napište na začátek odstavce číslo s tečkou (.) následované mezerou nebo tabulátorem.
Vloží odstavec bez číslování. Existující číslování to nijak neovlivní.
Přidat do automatických oprav
Některé z možností pro odrážky a číslovaní nejsou k dispozici při práci v režimu Zobrazení pro internet.
vytváření nových oken
Některá rozšíření mohou být označena textem "aktualizace z prohlížeče". Tato rozšíření nelze stáhnout ve Správci rozšíření. Chcete-li rozšíření aktualizovat, musíte v prohlížeči otevřít určenou webovou stránku. Stránka může před stažením rozšíření vyžadovat nějakou akci uživatele. Po stažení musíte rozšíření nainstalovat ručně, např. poklepáním na ikonu rozšíření ve správci souborů.
Chcete-li vložit do dokumentu pole, nejprve vyberte Typ, poté v seznamu Vybrat zvolte, která položka se má vložit, a klepněte na Vložit.
hodnota v radiánech=(hodnota ve stupních*Pi)/180
Vložit zápatí
Událost Při uvolnění nastane ihned po uvolnění formuláře; tj. jeho odpojení od zdroje dat.
Pokud se řádek obsahující sep=| nemá importovat jako data, nezapomeňte v dialogovém okně nastavit číslo Od řádku na 2. Mějte na paměti, že tento řádek se při opětovném uložení nezachová.
Na následující stránce klepnutím na ikonu Get It rozšíření se slovníkem stáhnete. Zapamatujte si název složky, do které prohlížeč soubor stáhl. Stáhněte další slovníky podle potřeby.
Zobrazení zdrojů dat
Zaškrtnutím pole Odkaz na soubor vložíte soubor jako odkaz.
Jestliže je parametr filename názvem existující složky, metoda vrátí False.
Formát zdroje
Vyberte hustotu pixelů (bodů na palec - DPI) obrázku ze seznamu.
V kombinaci s vlastností ListSourceType může obsahovat také název tabulky, dotazu či úplného SQL příkazu.
Na kartě Pozadí vyberte barvu nebo obrázek, který má být použit na pozadí.
Další zalomení (podnabídka)
Vyberte prvek, který bude následovat číslování: krok tabulátoru, mezera nebo nic.
Přepínač
Automaticky vypočítá mezisoučty.
Jednostránkové styly
V okně databázového souboru klepněte na ikonu Dotazy a poté zvolte Úpravy - Upravit. Pokud již neexistují odkazovaná pole, zobrazí se toto dialogové okno.
Při řazení bere do úvahy atributy formátování.
Chcete-li vytvořit uzavřený objekt, klepněte pravým tlačítkem myši a vyberte Uzavřít objekt.
Ovládací body 1 a 2
Určuje zobrazení zaznamenaných změn. Pro daný typ změny vyberte odpovídající atribut a barvu. Náhled ukazuje výsledek s vybraným nastavením.
Vyberte oblast buněk, které chcete použít jako filtr, a poté se klepnutím na toto tlačítko vraťte k nastavení filtru.
Název databázového pole se v poli Text štítkuuzavře do závorek. Jednotlivá databázová pole je možné oddělit mezerami. Po stisknutí klávesy Enter se databázové pole posune na nový řádek.
Přidání výjimek do seznamu automatických oprav
Seřadí výběr od nejnižší hodnoty po nejvyšší. Vlastní pravidla pro řazení můžete definovat v Data - Řadit - Možnosti. Výchozí hodnoty se stanovují v Nástroje - Možnosti - Jazyková nastavení - Jazyky.
Rozšířený identifikátor LCID sestává z 8 šestnáctkových číslic: [$-NNCCLLLL], kde první dvě číslice NN značí místní číslice, CC znamená kalendář a LLLL kód LCID. Například [$-0D0741E] se převede na [NatNum1][$-41E][~buddhist]: thajské číslice (0D) s buddhistickým kalendářem (07) v thajském národním prostředí (041E).
Zadejte umístění zdroje dat JDBC jako URL.
Poklepání na bílou oblast pravítka nastavíte jeden tabulátor. Zobrazí se dialogové okno Odstavec s otevřenou kartou Tabulátory.
Odsadí levý okraj tabulky o vzdálenost určenou v poli Vlevo v části Vzdálenost.
Nastavte možnosti pro svislé a vodorovné rozmístění a klepněte na OK.
Datum vypořádání: 15. února 1999, datum splatnosti: 13. dubna 1999, datum emise 11. listopadu 1998. Úroková míra: 6,1 %, výnos: 6,1 % a základna dle metody 30/360 je 0.
LibreOffice Calc ukládá všechny listy sešitu jako jeden HTML dokument. Na začátku HTML dokumentu je hlavička a seznam hypertextových odkazů, které vedou na jednotlivé listy.
Použít pro čísla národní prostředí 'Angličtina (USA)'
Zvolte Zobrazit - Nástrojové lišty - Možnosti
Určuje, zda lze data měnit.
Příkaz liminf vloží symbol limes inferior (nejmenší hromadný bod) s jedním zástupným znakem.
Přidá přepínač, který umožní uživateli vybrat z několika možností. Seskupené možnosti musí mít po sobě jdoucí pořadí pro procházení tabulátorem. Obvykle se související možnosti vkládají do jednoho seskupení. Pokud máte dvě skupiny voleb, musíte vložit mezi tyto dvě skupiny vložit jiné pořadí pro procházení tabulátorem, například pro rámec druhé skupiny nebo pro jakýkoliv jiný prvek v dialogovém okně kromě ostatních tlačítek volby.
Vytvoří a vrátí nový uzel ovládacího prvku strom jako objekt UNO vnořený do rodičovského uzlu. Podrobné informace naleznete v dokumentaci rozhraní pro programování aplikací (API) na stránce XMutableTreeNode.
Oblast dat
buddhistický
V okně databáze zvolte Úpravy - Databáze - Vlastnosti, klepněte na kartu Pokročilé vlastnosti
Můžete určit písmo použité po zadání příkazu font serif. Patky jsou malá "vodítka," která můžete vidět např. v dolní části velkého A při použití písma Times serif. Použití patkového písma je užitečné, protože vede oko čtenáře po rovné lince a může urychlit čtení.
Funkce Calcu ROUND
Vyplní objekt jednoduchým dvoubarevným vzorkem vybraným na této stránce.
Informace o databázi se uchovají pouze ve vytvořeném databázovém souboru.
Vložení zlomků do vzorce
Chcete-li čáru, která byla vytvořena pomocí Použít ohraničení, odstranit, umístěte nad ni kurzor a stiskněte Ctrl+M.
Naimportuje obsah textového souboru formátu CSV a umístí jej do zadané cílové buňky.
Zadáte-li do textového pole řetězec, zúžíte nabízený seznam příkazů.
Dialogové okno Záhlaví a zápatí obsahuje následující karty:
Poklepáním na libovolný jiný prvek grafu, nebo klepnutím na prvek a otevřením nabídky Formát: upravit jeho vlastnosti.
Uloží dokumenty.
Zvolte, pokud chcete při podepsání zobrazit upozornění, pokud dokument obsahuje zaznamenané změny, pole, odkazy na další zdroje (například odkazem připojené sekce nebo obrázky) nebo komentáře.
SazbaReinvestice: úroková sazba reinvestic (kladné hodnoty pole)
Otevře podnabídku, kde je možné vybrat zobrazení skrytých sloupců. Chcete-li zobrazit jen jeden sloupec, klepněte na jeho název. Vidíte pouze prvních 16 skrytých sloupců. Je-li skrytých více sloupců, vyberte příkaz Více, který otevře dialog Zobrazit sloupce.
Naimportuje data ze souboru s hodnotami oddělenými čárkou (CSV). Čárku lze nahradit libovolným znakem.
Index přímo pod znakem
Nástrojová lišta Elipsa obsahuje nástroje pro kreslení elips a kruhů. Také je možné kreslit výseče a úseče kruhů a elips.
=YIELDDISC("1999-02-15"; "1999-03-01"; 99,795; 100; 2) vrátí 0,052823 neboli 5,2823 procent.
Zbývající místo
Určí jednotně délku pravého a levého vodítka od základní čáry (odstup od čáry = 0). Kladné hodnoty prodlouží vodítka nad základní řádek a záporné vytvoří odstup vodítek od základního řádku.
Řadit sestupně
Zvolte Úpravy – Vyplnit – Náhodná čísla
Seznam všech dostupných polí.
V seznamu Formát nastavte, zda bude hodnota vložena jako text nebo jako číslo.
Ruční
\bkonst(itu|ruk)ce\b
Vybere objekt za právě vybraným objektem.
Další tip
Dokumenty ve formátu OpenDocument jsou uloženy jako komprimované ZIP archivy, které obsahují soubory XML soubory. Chcete-li zobrazit tyto soubory, můžete soubor OpenDocument rozbalit. V souborech OpenDocument jsou uloženy následující soubory a adresáře:
Vloží do šablony dopisu logo.
Tato funkce vrátí aktuální systémový čas jako řetězec ve formátu "HH:MM:SS".
Tato funkce počítá stejné výsledky jako funkce CEILING.PRECISE.
Pro změnu vlastností komentáře, jako je například barva pozadí, zvolte stejně jako výše Zobrazit komentář a poté klepněte pravým tlačítkem na komentář (nepoklepávejte na text).
Mění vlastnosti sekcí definovaných ve vašem dokumentu. Pro vložení sekce vyberte text nebo klepněte ve vašem dokumentu myší a potom zvolte Vložit - Sekce.
Je-li slovník prázdný, metoda vrátí prázdné pole (Array).
Určuje počáteční hodnoty zobrazující ovládací prvek se vzorkem. To uživateli pomůže rozeznat, jaké hodnoty jsou v tomto poli povoleny. Zadávané hodnoty jsou omezeny formátem vstupní masky.
Určuje názvy polí aktuální tabulky, které je možné použít v argumentech. Pokud není určen název pole, zobrazí se identifikátor sloupce.
Určuje typ pole. Dostupnost typů polí je omezena tím, který databázový engine se používá.
Nyní jsou dostupné všechny možnosti LibreOffice Writer/Web, jako je Zobrazit HTML zdroj.
Skryje posuvník v plovoucím rámci.
Možnosti pro nastavení minimálních a maximálních hodnot jsou:
Některé tvary mají speciální úchyty, jejichž přetažením změníte vlastnosti tvaru. Nad těmito úchyty se změní ukazatel myši na symbol ruky. Ovládací body odkazují na souřadnice X a Y pro umístění těchto úchytů. Pokud objekt žádné úchyty nemá, jsou v těchto polích nulové hodnoty. Má-li objekt jeden ovládací bod, nulové jsou souřadnice druhého bodu.
Definovat databázovou oblast
Zobrazuje krátký název položky použité literatury. Nový název můžete vložit pouze tehdy, když vytváříte novou položku literatury.
Změní pořadí vybraných objektů nad sebou.
Určuje, zda se mají tisknout všechny levé (sudá čísla) stránky v textových dokumentech.
Určuje národní prostředí. Tím ovlivníte formát čísel, měnu a měrné jednotky.
height: Určuje novou výšku grafu. Je-li tento argument vynechán nebo je-li zadána záporná hodnota, výška grafu se nezmění.
Určuje, zda se mají při kontrole pravopisu kontrolovat také slova napsaná velkými písmeny.
Odstranit filtr
Pro přidání dalších snímků opakujte poslední kroky.
Vytvoření nového sešitu
Zobrazuje dostupné styly tlačítek. Pro výběr stylu na něj klepněte myší.
Import a export dokumentů
Opakovat řádek
Zvolte kartu Formát - Odstavec - Odsazení a rozestupy.
Udává, kterou položku lze vložit pro vybraný typ pole.
Zadejte adresu příjemce. Také můžete klepnout do tohoto pole a vybrat databázi, tabulku a pole a poté klepnout na tlačítko šipky. Takto do adresy vložíte pole. Pokud chcete, můžete text adresy naformátovat (např. použít tučné či podtržené písmo).
Změna úrovně odstavce seznamu
Není-li cílová oblast pojmenována, klepněte do pole vedle pole Kopírovat výsledky do a zadejte oblast buněk. Oblast buněk lze též zadat pomocí myši nebo umístěním kurzoru do levé horní buňky cílové oblasti.
Základní DN
Zarovná střed textu k tabulátoru.
Přidá rámeček, který je možné použít k vizuálnímu seskupení souvisejících ovládacích prvků, např. možností přepínače.
Objekt
C je nepovinné. Pro C = 0 se spočítá hustota pravděpodobnosti, pro C = 1 se spočítá distribuční funkce.
Chcete-li odstranit záznam z aktuální tabulky, klepněte pravým tlačítkem myši na záhlaví řádku a zvolte Odstranit.
Vrátí nejmenší hodnotu, pro kterou je kumulativní binomické rozdělení větší nebo rovno zadanému kritériu.
289 Operace DDE bez dat
LINEST(data_Y [; data_X [; TypLinie [; statistika]]])
Absolutní rozdíl mezi A a B dělený větší z hodnot A a B je větší než hodnota uvedená v argumentu tolerance.
Vloží zástupný znak s dvojitou tečkou. Také můžete napsat ddot <?> v okně Příkazy.
Zadejte svislou odchylku přechodu, kde 0 % odpovídá současnému svislému umístění barvy koncového bodu přechodu. Barva koncového bodu je barva vybraná v poli Do barvy.
=DATE(00;1;31) znamená 1/31/00, pokud je formát buňky MM/DD/YY.
Zvolte Úpravy - Vyměnit databázi.
Zvolte Formát - Seznamy - Přidat k seznamu.
Aktuální filtr odstraníte klepnutím na ikonu Odstranit filtr/řazení.
Návrh tabulky bude uložen a poté je možné jej upravit.
Vrátí pro zadanou hodnotu hustotu pravděpodobnosti normovaného normálního rozdělení.
Ctrl+Enter na ikoně Výběr
Zobrazí se dialog, který vám umožní rozdělit buňku do dvou či více buněk.
Umístění v dokumentu
Tato ikona vloží operátor průnik množin se dvěma zástupnými znaky. Také můžete napsat <?> intersection <?> v okně Příkazy.
Zakázat
Umožňuje upravit vybraný objekt OLE, který jste vložili příkazem Vložit - Objekt OLE.
levá hranatá závorka [
COLUMN([Odkaz])
end: Číselná proměnná určující konečnou hodnotu čítače smyčky.
Vyberte úroveň průhlednosti vodoznaku. Hodnota 0 % značí neprůhledný a hodnota 100 % zcela průhledný (neviditelný) vodoznak.
Zvolte Zobrazit - Nástrojové lišty - Klasifikace TSCP
Vypočítá pro dva výběry dat párový t-test.
Export celého dokumentu do souborů .csv pro jednotlivé listy, nebo pouze určeného listu.
Obálka je v zásobníku tiskárny založena tiskovou stranou dolů.
Zobrazí název souboru dokumentu, který chcete použít k ověření XSLT filtru.
Otevřete nástrojovou lištu Vložit a klepněte na
Vlastnosti spojení (join)
Zvolte Soubor - Šablony - Uložit jako šablonu.
Vložit neformátovaný text
Národní prostředí použité pro formátování čísel, dat a měny v jazyce LibreOffice Basic můžete nastavit v Nástroje - Možnosti - Jazyková nastavení - Jazyky. Ve formátovacích kódech se jako zástupný znak pro desetinný oddělovač používá vždy tečka (.), která se při zobrazení nahradí odpovídajícím znakem podle národního prostředí.
Rejstříky vytvořené uživatelem
Dvojitá šipka vlevo a vpravo
Doporučuje se hodnotu argumentu Nominál funkce ACCRINTM vždy uvádět a neponechávat v Calcu nastavenou výchozí hodnotu. Díky tomu bude vzorec pochopitelnější a bude se snadněji udržovat.
Stisknutím F4 po výběru otevřete kartu přímo.
Přírůstky
Ukotví vybraný objekt k buňce V levém horním rohu buňky se zobrazí ikona kotvy.
Název pole
key: řetězec určující klíč položky, která se má vrátit.
Šrafování
V textovém poli Obsah se zobrazují texty klasifikace vytvořené v tomto dialogovém okně a dostupné termíny klasifikace pro dokument nebo odstavec. Ke stávajícím textům můžete přidat vlastní termíny klasifikace z konfiguračního souboru se zásadami klasifikace.
